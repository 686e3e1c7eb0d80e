// Concentration of a portfolio from its weights as fractions of total market value (summing to 1).

export interface WeightedHolding {
  symbol: string;
  sector: string;
  /** Fraction of total market value. */
  weight: number;
}

export interface SectorWeight {
  sector: string;
  weight: number;
}

/** Herfindahl–Hirschman index Σ w_i²: 1/N for N equal weights, 1 for a single holding. */
export function herfindahlIndex(weights: readonly number[]): number {
  let sum = 0;
  for (const weight of weights) sum += weight * weight;
  return sum;
}

/** 1 / Σ w_i²: the number of equal-weight holdings with the same concentration. */
export function effectiveNumberOfHoldings(weights: readonly number[]): number {
  return 1 / herfindahlIndex(weights);
}

/** The heaviest holding; the first in input order on a tie. */
export function largestWeight(holdings: readonly WeightedHolding[]): WeightedHolding {
  if (holdings.length === 0) throw new RangeError('largest weight of an empty portfolio');
  return holdings.reduce((largest, holding) => (holding.weight > largest.weight ? holding : largest));
}

/** Weights summed per sector, heaviest first (ties by sector name). */
export function sectorWeights(holdings: readonly WeightedHolding[]): SectorWeight[] {
  const bySector = new Map<string, number>();
  for (const holding of holdings)
    bySector.set(holding.sector, (bySector.get(holding.sector) ?? 0) + holding.weight);
  return [...bySector]
    .map(([sector, weight]) => ({ sector, weight }))
    .sort((a, b) => b.weight - a.weight || a.sector.localeCompare(b.sector));
}
