import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ALERT_KINDS,
  ALERT_STATUSES,
  AlertKind,
  AlertStatus,
  NEWS_SENTIMENTS,
  NewsSentiment,
  REARM_POLICIES,
  RearmPolicy,
} from '../alert-fields';
import { AlertRule } from '../alert-rule';

export class AlertResponse {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ enum: ALERT_KINDS, example: 'price_above' })
  kind: AlertKind;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'AAPL',
    description: 'A ticker, "portfolio", or null',
  })
  symbol: string | null;

  @ApiPropertyOptional({ example: 200 })
  price?: number;

  @ApiPropertyOptional({ example: 5 })
  percent?: number;

  @ApiPropertyOptional({ enum: NEWS_SENTIMENTS })
  sentiment?: NewsSentiment;

  @ApiPropertyOptional({ example: 0.5 })
  min_score?: number;

  @ApiPropertyOptional({ example: 7 })
  window_days?: number;

  @ApiPropertyOptional({ example: 0.3 })
  delta?: number;

  @ApiProperty({ enum: ALERT_STATUSES, example: 'active' })
  status: AlertStatus;

  @ApiProperty({ enum: REARM_POLICIES, example: 'never' })
  rearm: RearmPolicy;

  @ApiProperty({ type: 'integer', nullable: true, example: null })
  rearm_minutes: number | null;

  @ApiProperty({
    example: 1,
    description: 'How many times the rule has been armed; it fires at most once per arming',
  })
  arming: number;

  @ApiProperty({ format: 'date-time' })
  armed_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  triggered_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  updated_at: string | null;

  static from(rule: AlertRule): AlertResponse {
    return {
      id: rule.id,
      kind: rule.kind,
      symbol: rule.symbol,
      ...rule.thresholds,
      status: rule.status,
      rearm: rule.rearm,
      rearm_minutes: rule.rearmMinutes,
      arming: rule.arming,
      armed_at: rule.armedAt.toISOString(),
      triggered_at: rule.triggeredAt?.toISOString() ?? null,
      created_at: rule.createdAt.toISOString(),
      updated_at: rule.updatedAt?.toISOString() ?? null,
    };
  }
}
