import { pearsonCorrelation } from './statistics';

export interface CorrelationMatrix {
  symbols: string[];
  /** matrix[i][j] is the correlation of symbols[i] and symbols[j]; null when either never moves. */
  matrix: (number | null)[][];
}

/** Pairwise Pearson correlations of daily returns, symmetric by construction. */
export function correlationMatrix(
  symbols: readonly string[],
  returnsBySymbol: ReadonlyMap<string, readonly number[]>,
): CorrelationMatrix {
  const series = symbols.map((symbol) => {
    const returns = returnsBySymbol.get(symbol);
    if (!returns) throw new RangeError(`no returns for ${symbol}`);
    return returns;
  });
  const matrix = symbols.map(() => new Array<number | null>(symbols.length).fill(null));
  for (let i = 0; i < symbols.length; i += 1) {
    for (let j = i; j < symbols.length; j += 1) {
      const correlation = pearsonCorrelation(series[i], series[j]);
      matrix[i][j] = correlation;
      matrix[j][i] = correlation;
    }
  }
  return { symbols: [...symbols], matrix };
}
