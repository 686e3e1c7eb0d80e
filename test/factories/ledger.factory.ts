import type { ValuedPosition } from '../../src/modules/portfolio/analytics/position-valuation';
import type { LedgerTransaction } from '../../src/modules/portfolio/ledger-transaction';

/**
 * A stored ledger row of user 7's account 3, executed on 2026-01-0<id> at 15:00 UTC: a buy of one
 * AAPL at 100 unless `fields` say otherwise.
 */
export function ledgerRow(id: number, fields: Partial<LedgerTransaction> = {}): LedgerTransaction {
  const executedAt = new Date(`2026-01-0${id}T15:00:00Z`);
  return {
    id,
    userId: 7,
    accountId: 3,
    symbol: 'AAPL',
    side: 'buy',
    quantity: 1,
    price: 100,
    fees: 0,
    executedAt,
    tradeDate: `2026-01-0${id}`,
    note: null,
    realizedPnl: null,
    createdAt: executedAt,
    ...fields,
  };
}

/** A whole portfolio's one position, valued at `currentPrice` with no move today. */
export function soleValuedPosition(
  position: Pick<
    ValuedPosition,
    'symbol' | 'quantity' | 'currentPrice' | 'costBasis' | 'sector' | 'lastUpdated'
  >,
): ValuedPosition {
  const marketValue = position.quantity * position.currentPrice;
  return {
    ...position,
    marketValue,
    unrealizedPnl: marketValue - position.costBasis,
    unrealizedPnlPercent: 0,
    dayChange: 0,
    dayChangePercent: 0,
    weight: 100,
  };
}
