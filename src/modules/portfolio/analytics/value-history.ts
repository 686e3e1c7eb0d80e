// The daily series a value chart needs, from the ledger's daily valuations: market value, net
// invested capital, the cumulative time-weighted return since the period's start and a
// benchmark's cumulative return over the same days, evenly thinned to a bounded number of points.
import { DailyClose } from './daily-returns';
import { DailyValuation, HistoryPeriod, periodStart, previousDay } from './time-weighted-returns';

export const MAX_HISTORY_POINTS = 400;

export interface HistoryPoint {
  date: string;
  marketValue: number;
  /** Σ (B − S) of every day so far: money put into the holdings less money taken out (dividends included). */
  netInvested: number;
  /** Π(1 + r_d) − 1 over the valuation days after the start, up to this one (fraction). */
  cumulativeReturn: number;
  /** Benchmark close / its last close on or before the start − 1; null without such a close. */
  benchmarkReturn: number | null;
}

/**
 * The valuation days after the start of the period (the period's start, or the day before the
 * first trade when the ledger is younger), at most `maxPoints` of them: evenly spaced, first and
 * last kept.
 */
export function valueHistory(
  valuations: readonly DailyValuation[],
  benchmarkCloses: readonly DailyClose[],
  period: HistoryPeriod,
  asOf: string,
  maxPoints = MAX_HISTORY_POINTS,
): HistoryPoint[] {
  if (valuations.length === 0) return [];
  const start = historyStart(period, asOf, valuations[0].date);
  let benchmarkCursor = -1;
  const advanceBenchmark = (date: string) => {
    while (
      benchmarkCursor + 1 < benchmarkCloses.length &&
      benchmarkCloses[benchmarkCursor + 1].date <= date
    ) {
      benchmarkCursor += 1;
    }
    return benchmarkCursor >= 0 ? benchmarkCloses[benchmarkCursor].close : null;
  };
  const benchmarkBase = advanceBenchmark(start);

  const points: HistoryPoint[] = [];
  let netInvested = 0;
  let growth = 1;
  for (const valuation of valuations) {
    netInvested += valuation.bought - valuation.sold;
    if (valuation.date <= start) continue;
    growth *= 1 + valuation.dailyReturn;
    const benchmarkClose = advanceBenchmark(valuation.date);
    points.push({
      date: valuation.date,
      marketValue: valuation.value,
      netInvested,
      cumulativeReturn: growth - 1,
      benchmarkReturn:
        benchmarkBase !== null && benchmarkClose !== null ? benchmarkClose / benchmarkBase - 1 : null,
    });
  }
  return downsampleEvenly(points, maxPoints);
}

/** The day the history's returns are measured from: the period's start, not before the ledger's. */
export function historyStart(period: HistoryPeriod, asOf: string, firstTradeDay: string): string {
  const start = periodStart(period, asOf, firstTradeDay);
  const beforeFirstTrade = previousDay(firstTradeDay);
  return start < beforeFirstTrade ? beforeFirstTrade : start;
}

/** At most `max` items at evenly spaced positions, the first and the last always among them. */
export function downsampleEvenly<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  if (max === 1) return [items[items.length - 1]];
  const step = (items.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, index) => items[Math.round(index * step)]);
}
