import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Matches } from 'class-validator';
import { ALERT_KINDS, AlertKind } from '../alert-fields';
import { AlertThresholdFields, checkedFor } from './alert-rule-fields';

/** A ticker (class shares as BRK.B or BRK-B), or "portfolio" where the kind allows it. */
export const ALERT_SYMBOL_PATTERN = /^(?:[A-Za-z]{1,5}(?:[.-][A-Za-z])?|portfolio)$/;

export class CreateAlertDto extends AlertThresholdFields {
  @ApiProperty({ enum: ALERT_KINDS, example: 'price_above' })
  @IsIn(ALERT_KINDS)
  kind: AlertKind;

  @ApiPropertyOptional({
    example: 'AAPL',
    description:
      'A ticker known to the market data. Required for every kind but risk_level and watchlist_move; ' +
      'day_change and drawdown also take "portfolio"',
  })
  @checkedFor('symbol')
  @IsString()
  @Matches(ALERT_SYMBOL_PATTERN)
  symbol?: string;
}
