export interface TailRisk {
  /** Loss not exceeded on `confidence` of the days, as a positive fraction of value. */
  valueAtRisk: number;
  /** Mean loss on the days at or beyond the VaR (expected shortfall), as a positive fraction. */
  conditionalValueAtRisk: number;
}

/**
 * Historical one-day VaR and CVaR: sort the n daily returns ascending and take the k-th worst,
 * k = ⌈n × (1 − confidence)⌉ (at least 1); VaR = −r_(k), CVaR = −mean(r_(1) … r_(k)).
 * No distribution is assumed and nothing is interpolated.
 */
export function historicalTailRisk(dailyReturns: readonly number[], confidence: number): TailRisk {
  if (dailyReturns.length === 0) throw new RangeError('tail risk of an empty series');
  if (!(confidence > 0 && confidence < 1)) throw new RangeError('confidence must lie in (0, 1)');
  const ascending = [...dailyReturns].sort((a, b) => a - b);
  const tailSize = Math.max(1, Math.ceil(roundAwayNoise(ascending.length * (1 - confidence))));
  let tailSum = 0;
  for (let i = 0; i < tailSize; i += 1) tailSum += ascending[i];
  return { valueAtRisk: -ascending[tailSize - 1], conditionalValueAtRisk: -tailSum / tailSize };
}

/** 100 × (1 − 0.95) is 5.000000000000004 in binary: snap such noise before taking the ceiling. */
function roundAwayNoise(value: number): number {
  const nearest = Math.round(value);
  return Math.abs(value - nearest) < 1e-9 ? nearest : value;
}
