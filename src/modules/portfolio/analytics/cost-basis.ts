// Cost basis and realized P&L of the ledger by the user's method. `average` is the ledger replay
// itself; `fifo` and `specific` keep the replay's quantities and take each position's cost basis
// from its open lots and each sell's realized P&L from the lot portions it closed.
import { HeldPosition, LedgerEntry, LedgerReplay, ReplayCheckpoint, replayLedger } from './ledger-replay';
import { LotSelection, matchLots, MatchedLots } from './tax-lots';

export const COST_BASIS_METHODS = ['average', 'fifo', 'specific'] as const;
export type CostBasisMethod = (typeof COST_BASIS_METHODS)[number];

/** How a user's sells are matched to what they bought. */
export interface CostBasis {
  method: CostBasisMethod;
  /** The stored lot selections by sell id; honoured only under `specific`. */
  selections: ReadonlyMap<number, readonly LotSelection[]>;
}

export const AVERAGE_COST: CostBasis = Object.freeze({ method: 'average', selections: new Map() });

/** The lots by the method: FIFO under `average` and `fifo`, the selections then FIFO under `specific`. */
export function lotsByMethod(entries: readonly LedgerEntry[], costBasis: CostBasis): MatchedLots {
  return matchLots(entries, costBasis.method === 'specific' ? costBasis.selections : new Map());
}

/**
 * The replay with cost bases and realized P&L by the method (throws OversellError as the replay
 * does); `from` as in replayLedger.
 */
export function replayByMethod(
  entries: readonly LedgerEntry[],
  costBasis: CostBasis,
  from?: ReplayCheckpoint,
): LedgerReplay {
  const average = replayLedger(entries, from);
  if (costBasis.method === 'average') return average;
  const lots = lotsByMethod(entries, costBasis);
  const costBySymbol = new Map<string, number>();
  for (const lot of lots.open)
    costBySymbol.set(lot.symbol, (costBySymbol.get(lot.symbol) ?? 0) + lot.quantity * lot.costPerShare);
  const realizedBySymbol = new Map<string, number>();
  const realizedPnlBySell = new Map<number, number>();
  let totalRealizedPnl = 0;
  for (const portion of lots.closed) {
    realizedBySymbol.set(portion.symbol, (realizedBySymbol.get(portion.symbol) ?? 0) + portion.gain);
    realizedPnlBySell.set(portion.sellId, (realizedPnlBySell.get(portion.sellId) ?? 0) + portion.gain);
    totalRealizedPnl += portion.gain;
  }
  const positions = new Map<string, HeldPosition>(
    [...average.positions].map(([symbol, position]) => [
      symbol,
      {
        ...position,
        costBasis: costBySymbol.get(symbol) ?? 0,
        realizedPnl: realizedBySymbol.get(symbol) ?? 0,
      },
    ]),
  );
  return { positions, realizedPnlBySell, totalRealizedPnl, cashBalance: average.cashBalance };
}
