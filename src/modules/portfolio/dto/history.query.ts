import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { HISTORY_PERIODS, HistoryPeriod } from '../analytics/time-weighted-returns';
import { AccountIdField, ACCOUNT_SCOPE_DESCRIPTION } from './account-id.field';

export class HistoryQuery {
  @AccountIdField(ACCOUNT_SCOPE_DESCRIPTION)
  account_id?: number;

  @ApiPropertyOptional({
    enum: HISTORY_PERIODS,
    default: '1Y',
    description:
      'One month, three months, the year to date, one year, five years (calendar, on New York dates) or everything since the first trade',
  })
  @IsOptional()
  @IsIn(HISTORY_PERIODS)
  period: HistoryPeriod = '1Y';

  @ApiPropertyOptional({
    default: '^GSPC',
    description: 'Index or stock whose cumulative return is charted beside the portfolio',
  })
  @IsOptional()
  @IsString()
  @Matches(/^\^?[A-Za-z][A-Za-z0-9.-]{0,15}$/)
  benchmark: string = '^GSPC';
}
