import { setImmediate as nextTurn } from 'node:timers/promises';
import { previousTradingDay, type ReplayMarket, tradingDayOnOrBefore } from '../replay';
import {
  CORRELATION_WINDOW_SESSIONS,
  CoMovingPair,
  coMovingPairsByRow,
  dailyReturns,
  dot,
  unitDeviations,
} from './analytics/correlations';

/**
 * The daily returns of every stock over the window ending at one session, kept as unit deviations
 * (about 1 MB for 505 stocks) so the correlation of any pair is one dot product. Measuring and
 * pairing give the event loop back every ROWS_PER_TURN stocks: done in one go they held it for
 * 50-300 ms, and every request waited that long at boot and after each close.
 */
export class CorrelationModel {
  private constructor(
    readonly asOf: string,
    private readonly deviations: ReadonlyMap<string, Float64Array>,
  ) {}

  /** The model of the `CORRELATION_WINDOW_SESSIONS` returns up to the close of `asOf` (YYYY-MM-DD). */
  static async measure(market: ReplayMarket, asOf: string): Promise<CorrelationModel> {
    const days: number[] = [];
    for (
      let day = tradingDayOnOrBefore(asOf);
      days.length <= CORRELATION_WINDOW_SESSIONS;
      day = previousTradingDay(day)
    )
      days.push(day);
    days.reverse();
    const deviations = new Map<string, Float64Array>();
    const closes = new Float64Array(days.length);
    for (const [index, { symbol }] of market.dataset.universe.stocks.entries()) {
      days.forEach((day, at) => (closes[at] = market.closeOn(symbol, day)));
      const unit = unitDeviations(dailyReturns(closes));
      if (unit) deviations.set(symbol, unit);
      if (index % ROWS_PER_TURN === ROWS_PER_TURN - 1) await nextTurn();
    }
    return new CorrelationModel(asOf, deviations);
  }

  /** Pairs whose correlation reaches the co-movement threshold. */
  async coMovingPairs(): Promise<CoMovingPair[]> {
    const pairs: CoMovingPair[] = [];
    let rows = 0;
    for (const row of coMovingPairsByRow(this.deviations)) {
      pairs.push(...row);
      rows += 1;
      if (rows % ROWS_PER_TURN === 0) await nextTurn();
    }
    return pairs;
  }

  correlation(a: string, b: string): number | null {
    if (a === b) return 1;
    const x = this.deviations.get(a);
    const y = this.deviations.get(b);
    return x && y ? dot(x, y) : null;
  }
}

const ROWS_PER_TURN = 25;
