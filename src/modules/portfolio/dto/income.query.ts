import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { HISTORY_PERIODS, HistoryPeriod } from '../analytics/time-weighted-returns';
import { AccountIdField, ACCOUNT_SCOPE_DESCRIPTION } from './account-id.field';

export class IncomeQuery {
  @AccountIdField(ACCOUNT_SCOPE_DESCRIPTION)
  account_id?: number;

  @ApiPropertyOptional({
    enum: HISTORY_PERIODS,
    default: '1Y',
    description:
      'One month, three months, the year to date, one year, five years (calendar, on New York dates) or everything',
  })
  @IsOptional()
  @IsIn(HISTORY_PERIODS)
  period: HistoryPeriod = '1Y';
}
