import { pearsonCorrelation, sampleCovariance, sampleVariance } from './statistics';

/** β = Cov(r_p, r_b) / Var(r_b), both sample estimators; null when the benchmark never moves. */
export function betaToBenchmark(
  portfolioReturns: readonly number[],
  benchmarkReturns: readonly number[],
): number | null {
  const benchmarkVariance = sampleVariance(benchmarkReturns);
  if (benchmarkVariance === 0) return null;
  return sampleCovariance(portfolioReturns, benchmarkReturns) / benchmarkVariance;
}

/** Pearson correlation of daily portfolio and benchmark returns. */
export function correlationToBenchmark(
  portfolioReturns: readonly number[],
  benchmarkReturns: readonly number[],
): number | null {
  return pearsonCorrelation(portfolioReturns, benchmarkReturns);
}
