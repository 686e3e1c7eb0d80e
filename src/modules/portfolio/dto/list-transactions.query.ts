import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, Matches } from 'class-validator';
import { LimitField, SkipField } from '../../../common/validation/query-fields';
import { SYMBOL_PATTERN } from '../import/transactions-csv.parser';
import { AccountIdField } from './account-id.field';

export class ListTransactionsQuery {
  @AccountIdField('Only the transactions of this account (404 `Account not found` when it is not yours)')
  account_id?: number;

  @ApiPropertyOptional({ example: 'AAPL' })
  @IsOptional()
  @IsString()
  @Matches(SYMBOL_PATTERN)
  symbol?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'Executed at or after: a date compares with the exchange (New York) date of each entry, a ' +
      'date-time with its instant',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'Executed at or before: a date compares with the exchange (New York) date of each entry (so it ' +
      'includes that whole exchange day), a date-time with its instant',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @SkipField({ default: 0, documentAsInteger: true })
  skip: number = 0;

  @LimitField({ default: 100, max: 1000, documentAsInteger: true })
  limit: number = 100;
}
