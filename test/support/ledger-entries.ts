import { LedgerEntry, TransactionKind } from '../../src/modules/portfolio/analytics/ledger-replay';

let nextId = 1;

/** A ledger entry without fees at 15:00 UTC (10:00 in New York) of `day`, ids in creation order. */
export function tradeOn(
  day: string,
  symbol: string,
  side: TransactionKind,
  quantity: number,
  price: number,
): LedgerEntry {
  return {
    id: nextId++,
    symbol,
    side,
    quantity,
    price,
    fees: 0,
    executedAt: new Date(`${day}T15:00:00Z`),
    tradeDate: day,
  };
}
