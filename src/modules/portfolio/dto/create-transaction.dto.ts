import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ENTRY_KINDS, TransactionKind } from '../analytics/ledger-replay';
import { SYMBOL_PATTERN } from '../import/transactions-csv.parser';
import { MAX_CASH, MAX_FEES, MAX_PRICE, MAX_QUANTITY, MIN_AMOUNT } from '../ledger-limits';
import { KindField, requiresField } from '../transaction-fields';
import { AccountIdField } from './account-id.field';

/** A kind-dependent field is checked when given, and required when its kind needs it (see KIND_FIELDS). */
const checkedFor = (field: KindField) =>
  ValidateIf((body: Record<string, unknown>) => body[field] !== undefined || requiresField(body.side, field));

/** The most lots one sell may name. */
export const MAX_LOTS_PER_SELL = 1000;

/** PostgreSQL integer range, so an absurd id is a 422 and never a database error. */
const MAX_ID = 2_147_483_647;

export class LotSelectionDto {
  @ApiProperty({ type: 'integer', example: 12, minimum: 1, description: 'Id of the buy that opened the lot' })
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  lot_id: number;

  @ApiProperty({
    example: 5,
    minimum: MIN_AMOUNT,
    maximum: MAX_QUANTITY,
    description: 'Shares of the lot this sell closes (rounded to 8 decimals)',
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(MIN_AMOUNT)
  @IsPositive()
  @Max(MAX_QUANTITY)
  quantity: number;
}

// class-validator lists a field's failures bottom-up: IsPositive sits below Min so that 0 or a
// negative amount is reported as Pydantic's gt=0, and only a tiny positive one as ge=1e-8.
// Which fields a kind requires and accepts: KIND_FIELDS (transaction-fields.ts); a buy or a sell
// has exactly the fields it always had.
export class CreateTransactionDto {
  @AccountIdField(
    'The account it belongs to (404 `Account not found` when it is not yours); the default account when left out',
  )
  account_id?: number;

  @ApiPropertyOptional({
    example: 'AAPL',
    description:
      'Ticker known to the market-data provider (any case). Required for buy, sell, dividend and split; ' +
      'optional for fee (a fee charged on that position); not accepted for deposit, withdrawal and interest',
  })
  @checkedFor('symbol')
  @IsString()
  @Matches(SYMBOL_PATTERN)
  symbol?: string;

  @ApiProperty({ enum: ENTRY_KINDS })
  @IsIn(ENTRY_KINDS)
  side: TransactionKind;

  @ApiPropertyOptional({
    example: 10,
    minimum: MIN_AMOUNT,
    maximum: MAX_QUANTITY,
    description: 'Shares; fractions allowed (rounded to 8 decimals). Buy and sell only, required there',
  })
  @checkedFor('quantity')
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(MIN_AMOUNT)
  @IsPositive()
  @Max(MAX_QUANTITY)
  quantity?: number;

  @ApiPropertyOptional({
    example: 172.5,
    minimum: MIN_AMOUNT,
    maximum: MAX_PRICE,
    description: 'Price per share in USD (rounded to 8 decimals). Buy and sell only, required there',
  })
  @checkedFor('price')
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(MIN_AMOUNT)
  @IsPositive()
  @Max(MAX_PRICE)
  price?: number;

  @ApiProperty({
    example: '2025-06-02T15:30:00Z',
    format: 'date-time',
    description: 'When the trade happened (ISO 8601 date or date-time; not in the future)',
  })
  @IsISO8601({ strict: true })
  executed_at: string;

  @ApiPropertyOptional({
    example: 1,
    minimum: 0,
    maximum: MAX_FEES,
    default: 0,
    description: 'Commission in USD (rounded to 8 decimals). Buy and sell only',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_FEES)
  fees?: number;

  @ApiPropertyOptional({
    example: 24.5,
    minimum: MIN_AMOUNT,
    maximum: MAX_CASH,
    description:
      'USD (rounded to 8 decimals): the gross dividend, or the deposit, withdrawal, fee or interest. ' +
      'Required for those kinds, not accepted for buy, sell and split',
  })
  @checkedFor('amount')
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(MIN_AMOUNT)
  @IsPositive()
  @Max(MAX_CASH)
  amount?: number;

  @ApiPropertyOptional({
    example: 3.68,
    minimum: 0,
    default: 0,
    description: 'Dividend only: USD withheld at source, part of `amount` (at most `amount`)',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_CASH)
  withholding_tax?: number;

  @ApiPropertyOptional({
    example: '4:1',
    description:
      'Split only, required there: new shares for old shares, whole numbers, "4:1" (each share becomes 4) ' +
      'or "1:10" (a reverse split)',
  })
  @checkedFor('ratio')
  @IsString()
  ratio?: string;

  @ApiPropertyOptional({
    format: 'date',
    example: '2016-05-02',
    description:
      'Share transfer_in only: the date the shares were first acquired (YYYY-MM-DD, not after executed_at), ' +
      'so their lot keeps its holding period; executed_at’s date when left out',
  })
  @checkedFor('acquired_on')
  @IsISO8601({ strict: true })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'acquired_on must be a date (YYYY-MM-DD)' })
  acquired_on?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  note?: string;

  @ApiPropertyOptional({
    type: [LotSelectionDto],
    example: [{ lot_id: 12, quantity: 5 }],
    description:
      'Sells only: the lots (buys of the same symbol, open at the time of the sell) this sell closes, each once, ' +
      'their quantities adding up to the quantity sold. Stored with the sell; honoured under the `specific` ' +
      'cost-basis method (FIFO for a sell naming none), kept but ignored under the others.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_LOTS_PER_SELL)
  @ValidateNested({ each: true })
  @Type(() => LotSelectionDto)
  lots?: LotSelectionDto[];
}

/**
 * An edit: any field of a new entry. Fields left out keep their stored value while the kind stays;
 * a change of `side` keeps only the symbol and takes the new kind's fields as given (those it requires must be).
 */
export class UpdateTransactionDto extends PartialType(CreateTransactionDto) {}
