import { ApiProperty } from '@nestjs/swagger';
import { TRADE_SIDES, TradeSide } from '../analytics/ledger-replay';

export class TransactionResponse {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ enum: TRADE_SIDES })
  side: TradeSide;

  @ApiProperty()
  quantity: number;

  @ApiProperty({ description: 'USD per share' })
  price: number;

  @ApiProperty({ description: 'USD' })
  fees: number;

  @ApiProperty({ type: String, format: 'date-time' })
  executed_at: string;

  @ApiProperty({ type: String, nullable: true })
  note: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'Sells only (null for buys): quantity × price − fees − the average cost of the shares sold, in USD. ' +
      'Kept current when an earlier trade is added or deleted.',
  })
  realized_pnl: number | null;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: string;
}

export class TransactionListResponse {
  @ApiProperty({ type: [TransactionResponse], description: 'Newest first' })
  transactions: TransactionResponse[];

  @ApiProperty({ type: 'integer', description: 'Transactions matching the filters, all pages together' })
  total: number;

  @ApiProperty({ type: 'integer' })
  skip: number;

  @ApiProperty({ type: 'integer' })
  limit: number;
}

export class TransactionImportResponse {
  @ApiProperty({ type: 'integer', description: 'Rows recorded' })
  imported: number;

  @ApiProperty({ type: [TransactionResponse], description: 'The recorded transactions, in file order' })
  transactions: TransactionResponse[];
}
