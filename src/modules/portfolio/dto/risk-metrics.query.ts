import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { BooleanQueryField } from '../../../common/validation/query-fields';
import { AccountIdField, ACCOUNT_SCOPE_DESCRIPTION } from './account-id.field';

export const MIN_LOOKBACK_DAYS = 20;
export const MAX_LOOKBACK_DAYS = 1260;

export class RiskMetricsQuery {
  @AccountIdField(ACCOUNT_SCOPE_DESCRIPTION)
  account_id?: number;

  @ApiPropertyOptional({
    type: 'integer',
    default: 252,
    minimum: MIN_LOOKBACK_DAYS,
    maximum: MAX_LOOKBACK_DAYS,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(MIN_LOOKBACK_DAYS)
  @Max(MAX_LOOKBACK_DAYS)
  lookback_days: number = 252;

  @ApiPropertyOptional({
    default: '^GSPC',
    description: 'Index or stock to measure beta and correlation against',
  })
  @IsOptional()
  @IsString()
  @Matches(/^\^?[A-Za-z][A-Za-z0-9.-]{0,15}$/)
  benchmark: string = '^GSPC';

  @BooleanQueryField({
    description:
      "Count today's session while it is still open (New York time; 13:00 on early closes) as a day's return. By default the window ends at the last closed session.",
  })
  include_today: boolean = false;
}
