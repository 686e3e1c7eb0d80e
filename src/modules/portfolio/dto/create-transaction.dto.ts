import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { TRADE_SIDES, TradeSide } from '../analytics/ledger-replay';
import { SYMBOL_PATTERN } from '../import/transactions-csv.parser';

/** Largest quantity, price or fee accepted: far above any real trade, far below numeric(24, 8)'s limit. */
export const MAX_AMOUNT = 1e12;

export class CreateTransactionDto {
  @ApiProperty({ example: 'AAPL', description: 'Ticker known to the market-data provider (any case)' })
  @IsString()
  @Matches(SYMBOL_PATTERN)
  symbol: string;

  @ApiProperty({ enum: TRADE_SIDES })
  @IsIn(TRADE_SIDES)
  side: TradeSide;

  @ApiProperty({
    example: 10,
    exclusiveMinimum: true,
    minimum: 0,
    description: 'Shares; fractions allowed (8 decimals kept)',
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(MAX_AMOUNT)
  quantity: number;

  @ApiProperty({ example: 172.5, exclusiveMinimum: true, minimum: 0, description: 'Price per share in USD' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(MAX_AMOUNT)
  price: number;

  @ApiProperty({
    example: '2025-06-02T15:30:00Z',
    format: 'date-time',
    description: 'When the trade happened (ISO 8601 date or date-time; not in the future)',
  })
  @IsISO8601({ strict: true })
  executed_at: string;

  @ApiPropertyOptional({ example: 1, minimum: 0, default: 0, description: 'Commission in USD' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_AMOUNT)
  fees?: number;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  note?: string;
}
