import { mean, sampleStandardDeviation } from './statistics';

/** Daily figures scale to a year by 252 trading days (returns) and √252 (deviations). */
export const TRADING_DAYS_PER_YEAR = 252;

/** Sample standard deviation of daily returns (n − 1) × √252. */
export function annualisedVolatility(dailyReturns: readonly number[]): number {
  return sampleStandardDeviation(dailyReturns) * Math.sqrt(TRADING_DAYS_PER_YEAR);
}

/** Arithmetic mean of daily returns × 252. */
export function annualisedMeanReturn(dailyReturns: readonly number[]): number {
  return mean(dailyReturns) * TRADING_DAYS_PER_YEAR;
}
