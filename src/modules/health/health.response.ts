import { ApiProperty } from '@nestjs/swagger';

export class HealthServices {
  @ApiProperty({ enum: ['connected', 'disconnected'] })
  database: 'connected' | 'disconnected';

  @ApiProperty({
    enum: ['connected', 'degraded', 'disconnected'],
    description:
      'The market graph (in PostgreSQL): connected when it answers and its correlations are at most one session ' +
      'old; degraded while it is being built or when stale; disconnected when its store does not answer',
  })
  graph_database: 'connected' | 'degraded' | 'disconnected';

  @ApiProperty({ enum: ['active', 'unavailable'], description: 'Whether the market data provider answers' })
  market_data: 'active' | 'unavailable';

  @ApiProperty({
    enum: ['ready', 'degraded', 'unavailable'],
    description:
      'The chat assistant: always ready on the offline engine; with a model configured, degraded after a failed ' +
      'model turn (answers then come from the offline fallback) and unavailable after several in a row',
  })
  ai_service: 'ready' | 'degraded' | 'unavailable';
}

export class HealthResponse {
  @ApiProperty({ enum: ['healthy', 'unhealthy'] })
  status: 'healthy' | 'unhealthy';

  @ApiProperty({ format: 'date-time' })
  timestamp: string;

  @ApiProperty({ type: HealthServices })
  services: HealthServices;

  @ApiProperty({ example: '0.1.0' })
  version: string;
}
