import { CountedLru } from '../../common/metrics/cache-counters';
import { returnHistory, ReturnHistory, RiskMetricsInput } from './analytics/risk-metrics';
import { seriesFingerprint } from './same-series';

/** Daily returns kept, summed over the histories (8 bytes each): about 16 MB. */
const KEPT_RETURNS = 2_000_000;

interface KeptHistory {
  /** The market-data version of the closes it was computed from (same-series.ts). */
  closes: string;
  history: ReturnHistory;
}

/**
 * The return histories of the risk figures (analytics/risk-metrics.ts), kept per set of priced
 * symbols, benchmark, window and last counted close while the closes are the very same series:
 * a history depends on the closes alone, so a risk figure computed after a quote moved a
 * holding's value only weighs the kept returns again, and users holding the same symbols share one.
 */
export class ReturnHistories {
  private readonly kept = new CountedLru<string, KeptHistory>('portfolio-return-histories', {
    maxSize: KEPT_RETURNS,
    sizeCalculation: ({ history }) => {
      let returns = 1;
      for (const series of history.aligned?.returnsBySymbol.values() ?? []) returns += series.length;
      return returns;
    },
  });

  /** The input's return history: the kept one while its closes are the same series, else computed. */
  of(input: RiskMetricsInput): ReturnHistory {
    const priced = [
      ...new Set(
        input.holdings
          .map((holding) => holding.symbol)
          .filter((symbol) => (input.closesBySymbol.get(symbol)?.length ?? 0) > 0),
      ),
    ].sort();
    const series = new Map(priced.map((symbol) => [symbol, input.closesBySymbol.get(symbol)!]));
    const benchmark = input.benchmark && input.benchmark.closes.length > 0 ? input.benchmark : null;
    // Under a key no symbol has: the benchmark may be held too.
    if (benchmark) series.set(` ${benchmark.symbol}`, benchmark.closes);
    const slot = [input.lookbackDays, input.through ?? '', benchmark?.symbol ?? '', priced.join(',')].join(
      '|',
    );
    const closes = seriesFingerprint(series);
    const earlier = this.kept.getCurrent(slot, (entry) => entry.closes === closes);
    if (earlier) return earlier.history;
    const history = returnHistory(input);
    this.kept.set(slot, { closes, history });
    return history;
  }
}
