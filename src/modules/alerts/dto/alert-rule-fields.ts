import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsOptional, IsPositive, Max, Min, ValidateIf } from 'class-validator';
import {
  AlertField,
  MAX_ALERT_PRICE,
  MAX_REARM_MINUTES,
  MAX_SENTIMENT_DELTA,
  MAX_SENTIMENT_WINDOW_DAYS,
  NEWS_SENTIMENTS,
  NewsSentiment,
  REARM_POLICIES,
  RearmPolicy,
  requiresAlertField,
} from '../alert-fields';

/** A kind-dependent field is checked when given, and required when the kind needs it. */
export const checkedFor = (field: AlertField) =>
  ValidateIf(
    (body: Record<string, unknown>) => body[field] !== undefined || requiresAlertField(body.kind, field),
  );

/** The threshold fields, shared by creation and change; a change judges them against the rule's kind. */
export class AlertThresholdFields {
  @ApiPropertyOptional({
    example: 200,
    minimum: 0,
    maximum: MAX_ALERT_PRICE,
    description: 'USD, more than 0. price_above and price_below, required there',
  })
  @checkedFor('price')
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(MAX_ALERT_PRICE)
  price?: number;

  @ApiPropertyOptional({
    example: 5,
    minimum: 0,
    maximum: 100,
    description:
      'Percent move (absolute), more than 0. day_change, drawdown and watchlist_move, required there',
  })
  @checkedFor('percent')
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(100)
  percent?: number;

  @ApiPropertyOptional({ enum: NEWS_SENTIMENTS, description: 'news only: only items of this sentiment' })
  @checkedFor('sentiment')
  @IsIn(NEWS_SENTIMENTS)
  sentiment?: NewsSentiment;

  @ApiPropertyOptional({
    example: 0.5,
    minimum: 0,
    maximum: 1,
    description: 'news only: the least absolute sentiment score of an item',
  })
  @checkedFor('min_score')
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  min_score?: number;

  @ApiPropertyOptional({
    example: 7,
    minimum: 1,
    maximum: MAX_SENTIMENT_WINDOW_DAYS,
    description: 'sentiment_shift only, required there: days of news averaged',
  })
  @checkedFor('window_days')
  @IsInt()
  @Min(1)
  @Max(MAX_SENTIMENT_WINDOW_DAYS)
  window_days?: number;

  @ApiPropertyOptional({
    example: 0.3,
    minimum: 0,
    maximum: MAX_SENTIMENT_DELTA,
    description:
      'sentiment_shift only, required there: the least move (more than 0) of the average score (-1..1)',
  })
  @checkedFor('delta')
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(MAX_SENTIMENT_DELTA)
  delta?: number;

  @ApiPropertyOptional({
    enum: REARM_POLICIES,
    default: 'never',
    description:
      'After firing: never (until re-armed by PATCH status=active), next_session (at the next New York open), ' +
      'after_minutes (rearm_minutes later)',
  })
  @IsOptional()
  @IsIn(REARM_POLICIES)
  rearm?: RearmPolicy;

  @ApiPropertyOptional({
    example: 60,
    minimum: 1,
    maximum: MAX_REARM_MINUTES,
    description: 'Required with rearm=after_minutes, refused otherwise',
  })
  @ValidateIf(
    (body: Record<string, unknown>) => body.rearm_minutes !== undefined || body.rearm === 'after_minutes',
  )
  @IsInt()
  @Min(1)
  @Max(MAX_REARM_MINUTES)
  rearm_minutes?: number;
}
