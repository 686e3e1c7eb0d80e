import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { AlertThresholdFields } from './alert-rule-fields';

export const SETTABLE_STATUSES = ['active', 'paused'] as const;

/**
 * Any subset of a rule's thresholds (judged against its kind) and its state: `active` re-arms a
 * triggered or paused rule, `paused` stops it. The kind and the symbol are fixed at creation.
 */
export class UpdateAlertDto extends AlertThresholdFields {
  @ApiPropertyOptional({ enum: SETTABLE_STATUSES, description: 'active re-arms; paused stops evaluation' })
  @IsOptional()
  @IsIn(SETTABLE_STATUSES)
  status?: (typeof SETTABLE_STATUSES)[number];
}
