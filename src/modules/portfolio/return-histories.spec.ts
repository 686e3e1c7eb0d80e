import { DailyClose } from './analytics/daily-returns';
import { computeRiskMetrics, RiskMetricsInput } from './analytics/risk-metrics';
import { ReturnHistories } from './return-histories';

const SYMBOLS = ['AAA', 'BBB', 'CCC', 'DDD', 'EEE', 'FFF', 'GGG', 'HHH', 'III', 'JJJ', 'KKK', 'LLL'];
const DATES = Array.from({ length: 40 }, (_, day) =>
  new Date(Date.UTC(2026, 0, 2 + day)).toISOString().slice(0, 10),
);

/**
 * Closes that wander by a fixed pattern per symbol, so that every pair correlates differently;
 * frozen, as the provider cache answers them.
 */
function closesOf(seed: number): readonly DailyClose[] {
  let close = 50 + seed * 7;
  return Object.freeze(
    DATES.map((date, day) => {
      close *= 1 + Math.sin(seed * 1.7 + day * (0.3 + seed / 11)) / 40;
      return { date, close };
    }),
  );
}

function inputAt(
  valueOf: (symbol: string, index: number) => number,
  closes: Map<string, readonly DailyClose[]>,
) {
  return {
    holdings: SYMBOLS.map((symbol, index) => ({
      symbol,
      sector: index % 3 === 0 ? 'technology' : 'energy',
      marketValue: valueOf(symbol, index),
    })),
    closesBySymbol: closes,
    benchmark: { symbol: '^GSPC', closes: closes.get('^GSPC')! },
    lookbackDays: 30,
    annualRiskFreeRate: 0.04,
    through: DATES[DATES.length - 2],
  } satisfies RiskMetricsInput;
}

describe('ReturnHistories', () => {
  const closes = new Map([...SYMBOLS, '^GSPC'].map((symbol, seed) => [symbol, closesOf(seed + 1)]));

  it('gives the uncached figures exactly after prices move the holdings and reorder the largest ones', () => {
    const sut = new ReturnHistories();
    const before = inputAt((_, index) => 1_000 + index * 100, closes);
    const kept = sut.of(before);
    expect(computeRiskMetrics(before, kept)).toEqual(computeRiskMetrics(before));

    // The smallest holdings are now the largest: other pairs enter the top holdings' correlations.
    const after = inputAt((_, index) => 5_000 - index * 321.37, closes);
    const reused = sut.of(after);
    expect(reused).toBe(kept);
    const cached = computeRiskMetrics(after, reused);
    expect(cached).toEqual(computeRiskMetrics(after));
    expect(cached.volatility).not.toEqual(computeRiskMetrics(before).volatility);
    expect(cached.topHoldingsCorrelation!.symbols[0]).toBe('AAA');
    expect(sut.of(inputAt((_, index) => 1_000 + index * 100, closes))).toBe(kept);
  });

  it('serves portfolios of the same symbols in any order and any values', () => {
    const sut = new ReturnHistories();
    const one = inputAt((_, index) => 1_000 + index, closes);
    const other = { ...inputAt((_, index) => 7 * index + 1, closes) };
    other.holdings = [...other.holdings].reverse();
    expect(sut.of(other)).toBe(sut.of(one));
    expect(computeRiskMetrics(other, sut.of(other))).toEqual(computeRiskMetrics(other));
  });

  it('measures afresh from closes fetched again, from another window and from other symbols', () => {
    const sut = new ReturnHistories();
    const input = inputAt(() => 1_000, closes);
    const kept = sut.of(input);

    const revised = new Map(closes);
    revised.set(
      'BBB',
      closes.get('BBB')!.map((close, day) => (day === 20 ? { ...close, close: close.close * 1.1 } : close)),
    );
    const refetched = { ...input, closesBySymbol: revised };
    expect(sut.of(refetched)).not.toBe(kept);
    expect(computeRiskMetrics(refetched, sut.of(refetched))).toEqual(computeRiskMetrics(refetched));

    const nextDay = { ...input, through: DATES[DATES.length - 1] };
    expect(sut.of(nextDay)).not.toBe(kept);
    expect(computeRiskMetrics(nextDay, sut.of(nextDay))).toEqual(computeRiskMetrics(nextDay));

    const fewer = { ...input, holdings: input.holdings.slice(1) };
    expect(sut.of(fewer)).not.toBe(kept);
    expect(computeRiskMetrics(fewer, sut.of(fewer))).toEqual(computeRiskMetrics(fewer));
  });
});
