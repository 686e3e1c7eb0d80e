import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

/** PostgreSQL integer range, so an absurd id is a 422 and never a database error. */
const MAX_ID = 2_147_483_647;

export class AlertIdParams {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  id: number;
}
