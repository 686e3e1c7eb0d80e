import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ALERT_STATUSES, AlertStatus } from '../alert-fields';

export class ListAlertsQuery {
  @ApiPropertyOptional({ enum: ALERT_STATUSES, description: 'Only rules in this state' })
  @IsOptional()
  @IsIn(ALERT_STATUSES)
  status?: AlertStatus;
}
