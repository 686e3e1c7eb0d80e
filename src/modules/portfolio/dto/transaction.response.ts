import { ApiProperty } from '@nestjs/swagger';
import { TRANSACTION_KINDS, TransactionKind } from '../analytics/ledger-replay';
import { LedgerTransaction } from '../ledger-transaction';
import { money, nullable, quantity } from '../portfolio-rounding';
import { TransactionPage } from '../transactions.service';

export class TransactionResponse {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ enum: TRANSACTION_KINDS })
  side: TransactionKind;

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
      'Sells only (null for buys): quantity × price − fees − the cost of the shares sold by the cost-basis method ' +
      '(average cost by default; the closed lots under fifo and specific), in USD. Computed from the ledger when ' +
      'read, so it follows a change of method and of earlier trades.',
  })
  realized_pnl: number | null;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: string;

  /** Amounts at the 8 decimals the ledger keeps; realized P&L in cents. */
  static from(transaction: LedgerTransaction): TransactionResponse {
    return {
      id: transaction.id,
      symbol: transaction.symbol,
      side: transaction.side,
      quantity: quantity(transaction.quantity),
      price: quantity(transaction.price),
      fees: quantity(transaction.fees),
      executed_at: transaction.executedAt.toISOString(),
      note: transaction.note,
      realized_pnl: nullable(transaction.realizedPnl, money),
      created_at: transaction.createdAt.toISOString(),
    };
  }
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

  /** The page as the list route answers it. */
  static from(page: TransactionPage): TransactionListResponse {
    return {
      transactions: page.transactions.map((transaction) => TransactionResponse.from(transaction)),
      total: page.total,
      skip: page.skip,
      limit: page.limit,
    };
  }
}

export class TransactionImportResponse {
  @ApiProperty({ type: 'integer', description: 'Rows recorded' })
  imported: number;

  @ApiProperty({ type: [TransactionResponse], description: 'The recorded transactions, in file order' })
  transactions: TransactionResponse[];

  /** The recorded rows, in file order. */
  static from(recorded: LedgerTransaction[]): TransactionImportResponse {
    return {
      imported: recorded.length,
      transactions: recorded.map((transaction) => TransactionResponse.from(transaction)),
    };
  }
}
