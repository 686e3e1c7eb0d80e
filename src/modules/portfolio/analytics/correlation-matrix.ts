import { pearsonCorrelation } from './statistics';

export interface CorrelationMatrix {
  symbols: string[];
  /** matrix[i][j] is the correlation of symbols[i] and symbols[j]; null when either never moves. */
  matrix: (number | null)[][];
}

/** The correlation of two symbols' returns, given those returns. */
export type PairCorrelation = (
  symbols: [string, string],
  returns: [readonly number[], readonly number[]],
) => number | null;

/**
 * Pairwise Pearson correlations of daily returns, symmetric by construction; `pairCorrelation`
 * lets a caller reuse correlations it measured before on the same returns.
 */
export function correlationMatrix(
  symbols: readonly string[],
  returnsBySymbol: ReadonlyMap<string, readonly number[]>,
  pairCorrelation: PairCorrelation = (_, [xs, ys]) => pearsonCorrelation(xs, ys),
): CorrelationMatrix {
  const series = symbols.map((symbol) => {
    const returns = returnsBySymbol.get(symbol);
    if (!returns) throw new RangeError(`no returns for ${symbol}`);
    return returns;
  });
  const matrix = symbols.map(() => new Array<number | null>(symbols.length).fill(null));
  for (let i = 0; i < symbols.length; i += 1) {
    for (let j = i; j < symbols.length; j += 1) {
      const correlation = pairCorrelation([symbols[i], symbols[j]], [series[i], series[j]]);
      matrix[i][j] = correlation;
      matrix[j][i] = correlation;
    }
  }
  return { symbols: [...symbols], matrix };
}
