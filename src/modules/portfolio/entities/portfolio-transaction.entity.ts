import { Column, Entity, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';
import { TransactionKind } from '../analytics/ledger-replay';
import { LedgerTransaction } from '../ledger-transaction';

/** node-postgres returns numeric columns as strings to keep their precision; the ledger works in doubles. */
const numeric: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/** One entry of a user's ledger (a trade, dividend, split or cash movement); positions are replayed from these rows. */
@Entity({ name: 'portfolio_transactions' })
export class PortfolioTransactionEntity implements LedgerTransaction {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  @Column({ type: 'integer' })
  accountId: number;

  @Column({ type: 'varchar', length: 16, nullable: true })
  symbol: string | null;

  @Column({ type: 'varchar', length: 16 })
  side: TransactionKind;

  @Column({ type: 'numeric', precision: 24, scale: 8, transformer: numeric })
  quantity: number;

  @Column({ type: 'numeric', precision: 24, scale: 8, transformer: numeric })
  price: number;

  @Column({ type: 'numeric', precision: 24, scale: 8, transformer: numeric, default: 0 })
  fees: number;

  @Column({ type: 'timestamptz' })
  executedAt: Date;

  /** The exchange (New York) date it belongs to: the date given, or the New York date of the time given. */
  @Column({ type: 'date' })
  tradeDate: string;

  @Column({ type: 'numeric', precision: 24, scale: 8, nullable: true, transformer: numeric })
  amount: number | null;

  @Column({ type: 'numeric', precision: 24, scale: 8, nullable: true, transformer: numeric })
  withholdingTax: number | null;

  @Column({ type: 'integer', nullable: true })
  splitTo: number | null;

  @Column({ type: 'integer', nullable: true })
  splitFrom: number | null;

  /** A share transfer in: when its shares were first acquired. */
  @Column({ type: 'date', nullable: true })
  acquiredOn: string | null;

  /** The receiving leg of a transfer between accounts: its sending leg's id. */
  @Column({ type: 'integer', nullable: true })
  transferOf: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  note: string | null;

  /** Average-cost realized P&L of a sell (null for buys), kept current when earlier trades change. */
  @Column({ type: 'numeric', precision: 24, scale: 8, nullable: true, transformer: numeric })
  realizedPnl: number | null;

  /** When it was recorded, by the service's clock. */
  @Column({ type: 'timestamptz' })
  createdAt: Date;

  /** When it was last edited; null when never. */
  @Column({ type: 'timestamptz', nullable: true })
  updatedAt: Date | null;
}
