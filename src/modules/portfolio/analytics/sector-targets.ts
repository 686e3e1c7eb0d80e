import { SymbolTarget } from './rebalance-plan';

export interface SectorHolding {
  symbol: string;
  sector: string;
  marketValue: number;
}

export interface SectorTarget {
  sector: string;
  /** Percent of the portfolio. */
  weight: number;
}

export interface SymbolTargetsFromSectors {
  targets: SymbolTarget[];
  /** Indexes of sector targets with a positive weight but no holding to carry it. */
  sectorsWithoutHoldings: number[];
}

/**
 * Spreads each sector's target over the symbols held in it, in proportion to their current market
 * value (the mix inside a sector is kept); held symbols in sectors without a target get 0.
 */
export function symbolTargetsFromSectors(
  holdings: readonly SectorHolding[],
  sectorTargets: readonly SectorTarget[],
): SymbolTargetsFromSectors {
  const targetBySector = new Map(sectorTargets.map((target) => [target.sector, target.weight]));
  const sectorValue = new Map<string, number>();
  for (const holding of holdings) {
    sectorValue.set(holding.sector, (sectorValue.get(holding.sector) ?? 0) + holding.marketValue);
  }
  const targets = holdings.map((holding) => ({
    symbol: holding.symbol,
    weight:
      ((targetBySector.get(holding.sector) ?? 0) * holding.marketValue) / sectorValue.get(holding.sector)!,
  }));
  const sectorsWithoutHoldings = sectorTargets.flatMap((target, index) =>
    target.weight > 0 && !sectorValue.has(target.sector) ? [index] : [],
  );
  return { targets, sectorsWithoutHoldings };
}
