import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
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
} from 'class-validator';
import { SYMBOL_PATTERN } from '../import/transactions-csv.parser';
import { MAX_CASH, MAX_QUANTITY, MIN_AMOUNT } from '../ledger-limits';
import { LedgerTransaction } from '../ledger-transaction';
import { MAX_ACCOUNT_ID } from './account-id.field';
import { TransactionResponse } from './transaction.response';

export class CreateTransferDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The account the cash or shares leave' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_ACCOUNT_ID)
  from_account_id: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The account they arrive in' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_ACCOUNT_ID)
  to_account_id: number;

  @ApiPropertyOptional({
    example: 'AAPL',
    description: 'Shares of this symbol (with quantity); cash without it',
  })
  @IsOptional()
  @IsString()
  @Matches(SYMBOL_PATTERN)
  symbol?: string;

  @ApiPropertyOptional({
    example: 10,
    minimum: MIN_AMOUNT,
    maximum: MAX_QUANTITY,
    description: 'Shares moved',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(MIN_AMOUNT)
  @IsPositive()
  @Max(MAX_QUANTITY)
  quantity?: number;

  @ApiPropertyOptional({
    example: 2500,
    minimum: MIN_AMOUNT,
    maximum: MAX_CASH,
    description: 'USD moved (cash only)',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(MIN_AMOUNT)
  @IsPositive()
  @Max(MAX_CASH)
  amount?: number;

  @ApiProperty({
    example: '2025-06-02T15:30:00Z',
    format: 'date-time',
    description: 'ISO date or date-time; not in the future',
  })
  @IsISO8601({ strict: true })
  executed_at: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  note?: string;
}

export class TransferResponse {
  @ApiProperty({ type: TransactionResponse, description: 'The transfer_out of the sending account' })
  sent: TransactionResponse;

  @ApiProperty({
    type: [TransactionResponse],
    description:
      'The transfer_in legs of the receiving account: one for cash; for shares, one per lot moved, each with its ' +
      'acquisition date and cost basis',
  })
  received: TransactionResponse[];

  static from([sent, ...received]: LedgerTransaction[]): TransferResponse {
    return {
      sent: TransactionResponse.from(sent),
      received: received.map((leg) => TransactionResponse.from(leg)),
    };
  }
}
