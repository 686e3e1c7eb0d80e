import { previousTradingDay, type ReplayMarket, tradingDayOnOrBefore } from '../replay';
import {
  CORRELATION_WINDOW_SESSIONS,
  CoMovingPair,
  coMovingPairs,
  dailyReturns,
  dot,
  unitDeviations,
} from './analytics/correlations';

/**
 * The daily returns of every stock over the window ending at one session, kept as unit deviations
 * (about 1 MB for 505 stocks) so the correlation of any pair is one dot product.
 */
export class CorrelationModel {
  private constructor(
    readonly asOf: string,
    private readonly deviations: ReadonlyMap<string, Float64Array>,
  ) {}

  /** The model of the `CORRELATION_WINDOW_SESSIONS` returns up to the close of `asOf` (YYYY-MM-DD). */
  static measure(market: ReplayMarket, asOf: string): CorrelationModel {
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
    for (const { symbol } of market.dataset.universe.stocks) {
      days.forEach((day, index) => (closes[index] = market.closeOn(symbol, day)));
      const unit = unitDeviations(dailyReturns(closes));
      if (unit) deviations.set(symbol, unit);
    }
    return new CorrelationModel(asOf, deviations);
  }

  /** Pairs whose correlation reaches the co-movement threshold. */
  coMovingPairs(): CoMovingPair[] {
    return coMovingPairs(this.deviations);
  }

  correlation(a: string, b: string): number | null {
    if (a === b) return 1;
    const x = this.deviations.get(a);
    const y = this.deviations.get(b);
    return x && y ? dot(x, y) : null;
  }
}
