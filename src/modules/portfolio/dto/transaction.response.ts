import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { unreachable } from '../../../common/types/unreachable';
import { ENTRY_KINDS, TransactionKind } from '../analytics/ledger-replay';
import { LedgerTransaction } from '../ledger-transaction';
import { money, nullable, quantity } from '../portfolio-rounding';
import { formatSplitRatio } from '../transaction-fields';
import { TransactionPage } from '../transactions.service';
import { TransactionRevision } from '../portfolio-transactions.repository';

const TRADES_ONLY = 'Buy and sell only';

export class TransactionResponse {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty({ type: 'integer', description: 'The account it belongs to (see /portfolio/accounts)' })
  account_id: number;

  @ApiProperty({
    example: 'AAPL',
    type: String,
    nullable: true,
    description: 'Null for deposits, withdrawals, interest and fees not charged on a position',
  })
  symbol: string | null;

  @ApiProperty({ enum: ENTRY_KINDS })
  side: TransactionKind;

  @ApiPropertyOptional({ description: TRADES_ONLY })
  quantity?: number;

  @ApiPropertyOptional({ description: `USD per share. ${TRADES_ONLY}` })
  price?: number;

  @ApiPropertyOptional({ description: `USD. ${TRADES_ONLY}` })
  fees?: number;

  @ApiPropertyOptional({
    example: 24.5,
    description: 'USD: the gross dividend, deposit, withdrawal, fee or interest. Those kinds only',
  })
  amount?: number;

  @ApiPropertyOptional({ example: 3.68, description: 'USD withheld from a dividend. Dividends only' })
  withholding_tax?: number;

  @ApiPropertyOptional({ example: '4:1', description: 'New shares : old shares. Splits only' })
  ratio?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    nullable: true,
    description: 'Share transfer_in only: when its shares were first acquired (their lot keeps that date)',
  })
  acquired_on?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'Transfers only: the receiving leg of a transfer between accounts names its sending leg',
  })
  transfer_of?: number | null;

  @ApiProperty({ type: String, format: 'date-time' })
  executed_at: string;

  @ApiProperty({ type: String, nullable: true })
  note: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description:
      'Sells only (null for buys; absent for the other kinds): quantity × price − fees − the cost of the shares ' +
      'sold by the cost-basis method (average cost by default; the closed lots under fifo and specific), in USD. ' +
      'Computed from the ledger when read, so it follows a change of method and of earlier trades.',
  })
  realized_pnl?: number | null;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When last edited; null when never',
  })
  updated_at: string | null;

  /**
   * Amounts at the 8 decimals the ledger keeps; realized P&L in cents. A buy or sell has exactly the
   * fields it always had; the other kinds have their own (KIND_FIELDS) instead of the trade's.
   */
  static from(transaction: LedgerTransaction): TransactionResponse {
    // Literals written out rather than spread from shared parts: spreading made this five times
    // slower, and it runs for every row of a page.
    const { id, symbol, side, note } = transaction;
    const account_id = transaction.accountId;
    const executed_at = transaction.executedAt.toISOString();
    const created_at = transaction.createdAt.toISOString();
    const updated_at = transaction.updatedAt ? transaction.updatedAt.toISOString() : null;
    switch (side) {
      case 'buy':
      case 'sell':
        return {
          id,
          account_id,
          symbol,
          side,
          quantity: quantity(transaction.quantity),
          price: quantity(transaction.price),
          fees: quantity(transaction.fees),
          executed_at,
          note,
          realized_pnl: nullable(transaction.realizedPnl, money),
          created_at,
          updated_at,
        };
      case 'dividend':
        return {
          id,
          account_id,
          symbol,
          side,
          amount: quantity(transaction.amount ?? 0),
          withholding_tax: quantity(transaction.withholdingTax ?? 0),
          executed_at,
          note,
          created_at,
          updated_at,
        };
      case 'split':
        return {
          id,
          account_id,
          symbol,
          side,
          ratio: formatSplitRatio(transaction.splitTo!, transaction.splitFrom!),
          executed_at,
          note,
          created_at,
          updated_at,
        };
      case 'deposit':
      case 'withdrawal':
      case 'fee':
      case 'interest':
        return {
          id,
          account_id,
          symbol,
          side,
          amount: quantity(transaction.amount ?? 0),
          executed_at,
          note,
          created_at,
          updated_at,
        };
      case 'transfer_in':
      case 'transfer_out':
        return {
          id,
          account_id,
          symbol,
          side,
          ...(symbol === null ? {} : { quantity: quantity(transaction.quantity) }),
          ...(symbol !== null && side === 'transfer_out'
            ? {}
            : { amount: quantity(transaction.amount ?? 0) }),
          ...(symbol !== null && side === 'transfer_in'
            ? { acquired_on: transaction.acquiredOn ?? null }
            : {}),
          transfer_of: transaction.transferOf ?? null,
          executed_at,
          note,
          created_at,
          updated_at,
        };
      default:
        return unreachable(side);
    }
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

export class TransactionRevisionResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The stored values the edit replaced: account_id, symbol, side, quantity, price, fees, amount, withholding_tax, ' +
      'split_to, split_from, executed_at, trade_date, note, realized_pnl (average cost), updated_at',
  })
  previous: Record<string, unknown>;

  @ApiProperty({ type: String, format: 'date-time' })
  replaced_at: string;
}

export class TransactionHistoryResponse {
  @ApiProperty({ type: [TransactionRevisionResponse], description: 'Oldest first' })
  revisions: TransactionRevisionResponse[];

  static from(revisions: TransactionRevision[]): TransactionHistoryResponse {
    return {
      revisions: revisions.map((revision) => ({
        previous: revision.previous,
        replaced_at: revision.replacedAt.toISOString(),
      })),
    };
  }
}
