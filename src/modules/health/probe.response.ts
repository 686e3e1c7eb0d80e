import { ApiProperty } from '@nestjs/swagger';

export class LivenessResponse {
  @ApiProperty({ enum: ['alive'] })
  status: 'alive';
}

export class ReadinessChecks {
  @ApiProperty({ enum: ['up', 'down'] })
  database: 'up' | 'down';

  @ApiProperty({
    enum: ['up', 'down', 'not_configured'],
    description: 'Reported only: while Redis is down the service serves from the database',
  })
  redis: 'up' | 'down' | 'not_configured';

  @ApiProperty({ description: 'True once shutdown has begun' })
  draining: boolean;
}

export class ReadinessResponse {
  @ApiProperty({ enum: ['ready', 'not_ready'] })
  status: 'ready' | 'not_ready';

  @ApiProperty({ type: ReadinessChecks })
  checks: ReadinessChecks;
}
