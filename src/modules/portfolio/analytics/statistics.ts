// Descriptive statistics over plain number arrays. "Sample" estimators divide by n - 1 (Bessel's
// correction) because a return history is a sample of an unknown distribution.

export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('mean of an empty series');
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

export function sampleCovariance(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length !== ys.length) throw new RangeError('series of different lengths');
  if (xs.length < 2) throw new RangeError('a sample covariance needs at least two observations');
  const meanX = mean(xs);
  const meanY = mean(ys);
  let sum = 0;
  for (let i = 0; i < xs.length; i += 1) sum += (xs[i] - meanX) * (ys[i] - meanY);
  return sum / (xs.length - 1);
}

export function sampleVariance(values: readonly number[]): number {
  return sampleCovariance(values, values);
}

export function sampleStandardDeviation(values: readonly number[]): number {
  return Math.sqrt(sampleVariance(values));
}

/** Pearson correlation; null when either series is constant (the ratio is undefined). */
export function pearsonCorrelation(xs: readonly number[], ys: readonly number[]): number | null {
  const covariance = sampleCovariance(xs, ys);
  const deviations = Math.sqrt(sampleVariance(xs) * sampleVariance(ys));
  if (deviations === 0) return null;
  return clamp(covariance / deviations, -1, 1);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
