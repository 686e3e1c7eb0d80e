/** Sessions of daily returns a co-movement is measured over: about one trading year. */
export const CORRELATION_WINDOW_SESSIONS = 252;
/** The least correlation that makes two companies co-move. */
export const CO_MOVEMENT_THRESHOLD = 0.6;

/** Simple daily returns of consecutive closes: n closes give n − 1 returns. */
export function dailyReturns(closes: ArrayLike<number>): Float64Array {
  const returns = new Float64Array(Math.max(0, closes.length - 1));
  for (let index = 1; index < closes.length; index += 1) {
    returns[index - 1] = closes[index] / closes[index - 1] - 1;
  }
  return returns;
}

/**
 * The returns centred on their mean and scaled to unit length, so the Pearson correlation of two
 * series is the dot product of theirs. Null for a series that never moved (no correlation exists).
 */
export function unitDeviations(returns: ArrayLike<number>): Float64Array | null {
  const count = returns.length;
  let sum = 0;
  for (let index = 0; index < count; index += 1) sum += returns[index];
  const mean = sum / count;
  const deviations = new Float64Array(count);
  let squares = 0;
  for (let index = 0; index < count; index += 1) {
    deviations[index] = returns[index] - mean;
    squares += deviations[index] * deviations[index];
  }
  if (!(squares > 1e-18)) return null;
  const norm = Math.sqrt(squares);
  for (let index = 0; index < count; index += 1) deviations[index] /= norm;
  return deviations;
}

export function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index += 1) sum += a[index] * b[index];
  return sum;
}

export interface CoMovingPair {
  /** The pair in symbol order: a < b. */
  a: string;
  b: string;
  correlation: number;
}

/** Every pair whose correlation reaches `threshold`, each once with a < b. */
export function coMovingPairs(
  deviations: ReadonlyMap<string, Float64Array>,
  threshold = CO_MOVEMENT_THRESHOLD,
): CoMovingPair[] {
  return [...coMovingPairsByRow(deviations, threshold)].flat();
}

/**
 * The same pairs, one symbol's row at a time (its pairs with the symbols after it), so that a
 * caller can let other work run between rows: the whole matrix is about 127,000 dot products.
 */
export function* coMovingPairsByRow(
  deviations: ReadonlyMap<string, Float64Array>,
  threshold = CO_MOVEMENT_THRESHOLD,
): Generator<CoMovingPair[]> {
  const symbols = [...deviations.keys()].sort();
  const series = symbols.map((symbol) => deviations.get(symbol)!);
  for (let i = 0; i < symbols.length; i += 1) {
    const row: CoMovingPair[] = [];
    for (let j = i + 1; j < symbols.length; j += 1) {
      const correlation = dot(series[i], series[j]);
      if (correlation >= threshold) row.push({ a: symbols[i], b: symbols[j], correlation });
    }
    yield row;
  }
}
