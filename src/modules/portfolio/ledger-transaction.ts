import { LedgerEntry } from './analytics/ledger-replay';

/** One transaction of a user's ledger, as stored: what the replay reads, and its bookkeeping. */
export interface LedgerTransaction extends LedgerEntry {
  userId: number;
  /** Every stored transaction belongs to one of its user's accounts. */
  accountId: number;
  note: string | null;
  /**
   * Average-cost realized P&L of a sell (null for buys), kept current when earlier trades change;
   * answers under another cost-basis method replace it (`withRealizedPnlOf`).
   */
  realizedPnl: number | null;
  /** When it was recorded, by the service's clock. */
  createdAt: Date;
  /** When it was last edited (null, or absent, when never). */
  updatedAt?: Date | null;
}

/**
 * A transaction about to be appended: the ledger gives it its id and realized P&L, and, when it names
 * no account, puts it in the user's default account.
 */
export type NewLedgerTransaction = Omit<LedgerTransaction, 'id' | 'realizedPnl' | 'accountId'> & {
  accountId?: number;
};

/** A new transaction placed in its account, as it is stored. */
export type PlacedLedgerTransaction = NewLedgerTransaction & { accountId: number };

/** The transaction with the realized P&L `realizedPnlBySell` gives it, if any. */
export function withRealizedPnlOf(
  transaction: LedgerTransaction,
  realizedPnlBySell: ReadonlyMap<number, number>,
): LedgerTransaction {
  const realizedPnl = realizedPnlBySell.get(transaction.id);
  return realizedPnl === undefined ? transaction : { ...transaction, realizedPnl };
}
