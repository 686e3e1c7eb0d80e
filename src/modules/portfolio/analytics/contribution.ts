// Each position's contribution to the portfolio's time-weighted return over a period.
//
// A day's return splits exactly over the positions: with g_i,d = V_i,d − V_i,d−1 − (B_i,d − S_i,d)
// (the position's gain net of its own trades), Σ_i g_i,d = V_d − V_{d−1} − (B_d − S_d), so
//   c_i,d = g_i,d / (V_{d−1} + B_d)   sums over i to r_d.
// Linked over the period with the growth of the whole portfolio before each day,
//   C_i = Σ_d c_i,d · Π_{k<d}(1 + r_k),
// the contributions sum to Π(1 + r_d) − 1, the period's time-weighted return: a gain made when the
// portfolio had already grown weighs as much as it moved the total then.
import { DailyClose } from './daily-returns';
import { LedgerEntry } from './ledger-replay';
import { walkValuationDays } from './time-weighted-returns';

export interface PositionContribution {
  symbol: string;
  /** Fraction of the period's return (0.01 = one percentage point). */
  contribution: number;
}

/**
 * Contributions of every symbol held or traded on a valuation day after `start`, largest first;
 * empty when no capital was at work after it.
 */
export function positionContributions(
  entries: readonly LedgerEntry[],
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  asOf: string,
  start: string,
): PositionContribution[] {
  const contributions = new Map<string, number>();
  let previousValues = new Map<string, number>();
  let previousValue = 0;
  let growth = 1;
  walkValuationDays(entries, closesBySymbol, asOf, (day) => {
    const values = new Map<string, number>();
    for (const [symbol, quantity] of day.quantityBySymbol) {
      values.set(symbol, quantity * (day.priceBySymbol.get(symbol) ?? 0));
    }
    const investedBase = previousValue + day.bought;
    if (day.date > start && investedBase > 0) {
      // A symbol with a flow but no quantity (a fee stored before such fees were refused) still
      // has its gain, so the contributions keep summing to the return.
      for (const symbol of new Set([...values.keys(), ...day.netFlowBySymbol.keys()])) {
        const value = values.get(symbol) ?? 0;
        const previous = previousValues.get(symbol) ?? 0;
        const netFlow = day.netFlowBySymbol.get(symbol) ?? 0;
        if (previous === 0 && value === 0 && netFlow === 0) continue;
        const gain = value - previous - netFlow;
        contributions.set(symbol, (contributions.get(symbol) ?? 0) + (growth * gain) / investedBase);
      }
      growth *= 1 + (day.value - previousValue - (day.bought - day.sold)) / investedBase;
    }
    previousValues = values;
    previousValue = day.value;
  });
  return [...contributions]
    .map(([symbol, contribution]) => ({ symbol, contribution }))
    .sort((a, b) => b.contribution - a.contribution || a.symbol.localeCompare(b.symbol));
}
