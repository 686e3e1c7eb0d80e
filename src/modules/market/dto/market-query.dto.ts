import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMinSize, IsArray, IsIn, IsISO8601, IsOptional, Matches } from 'class-validator';
import { LimitField, SearchQueryField } from '../../../common/validation/query-fields';
import { parseSymbolList } from '../market-symbols';
import { HISTORY_INTERVALS, HistoryInterval } from '../price-history';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export class BatchQuotesQuery {
  @ApiProperty({
    type: String,
    example: 'AAPL,MSFT,GOOGL',
    description:
      'Comma-separated, at most 10; trimmed, upper-cased, empty entries dropped, duplicates listed once',
  })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' || Array.isArray(value) ? parseSymbolList([value].flat().join(',')) : value,
  )
  @IsArray()
  @ArrayMinSize(1)
  symbols: string[];
}

export class SymbolSearchQuery {
  @SearchQueryField({ maxLength: 100, description: 'Matched against tickers and company names' })
  query: string;

  @LimitField({ default: 10, max: 50 })
  limit: number = 10;
}

export class PriceHistoryQuery {
  @ApiPropertyOptional({
    format: 'date',
    example: '2025-11-21',
    description: 'Default: one year before `to`',
  })
  @IsOptional()
  @Matches(ISO_DATE)
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date', example: '2026-11-21', description: 'Default: today (New York)' })
  @IsOptional()
  @Matches(ISO_DATE)
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ enum: HISTORY_INTERVALS, default: '1d' })
  @IsOptional()
  @IsIn(HISTORY_INTERVALS)
  interval: HistoryInterval = '1d';
}
