import { mean, sampleStandardDeviation } from './statistics';
import { TRADING_DAYS_PER_YEAR } from './volatility';

/** The annual risk-free rate spread evenly over the trading days (simple, not compounded). */
export function dailyRiskFreeRate(annualRiskFreeRate: number): number {
  return annualRiskFreeRate / TRADING_DAYS_PER_YEAR;
}

/** Sharpe = mean(r − rf_d) / s(r) × √252, s the sample deviation; null when s = 0. */
export function sharpeRatio(dailyReturns: readonly number[], annualRiskFreeRate: number): number | null {
  const deviation = sampleStandardDeviation(dailyReturns);
  if (deviation === 0) return null;
  const meanExcess = mean(dailyReturns) - dailyRiskFreeRate(annualRiskFreeRate);
  return (meanExcess / deviation) * Math.sqrt(TRADING_DAYS_PER_YEAR);
}

/**
 * Sortino = mean(r − rf_d) / DD × √252 with the downside deviation
 * DD = √(Σ min(0, r − rf_d)² / n) over all n days (target return rf_d); null when DD = 0, and
 * null like Sharpe when the returns do not vary at all (a flat series, e.g. cash-like holdings,
 * would otherwise score −√252 for trailing the risk-free rate by a constant).
 */
export function sortinoRatio(dailyReturns: readonly number[], annualRiskFreeRate: number): number | null {
  if (sampleStandardDeviation(dailyReturns) === 0) return null;
  const target = dailyRiskFreeRate(annualRiskFreeRate);
  let squaredShortfalls = 0;
  for (const value of dailyReturns) {
    const shortfall = Math.min(0, value - target);
    squaredShortfalls += shortfall * shortfall;
  }
  const downsideDeviation = Math.sqrt(squaredShortfalls / dailyReturns.length);
  if (downsideDeviation === 0) return null;
  return ((mean(dailyReturns) - target) / downsideDeviation) * Math.sqrt(TRADING_DAYS_PER_YEAR);
}
