import { percentOf, ValuedPosition } from './position-valuation';

export interface SectorAllocation {
  sector: string;
  marketValue: number;
  /** Percent of total market value. */
  weight: number;
}

export interface Performer {
  symbol: string;
  unrealizedPnlPercent: number;
}

export interface PortfolioTotals {
  totalValue: number;
  totalCost: number;
  unrealizedPnl: number;
  unrealizedPnlPercent: number;
  realizedPnl: number;
  dayChange: number;
  dayChangePercent: number;
  positionsCount: number;
  sectorAllocation: SectorAllocation[];
  bestPerformer: Performer | null;
  worstPerformer: Performer | null;
}

/**
 * Totals of valued positions. Unrealized percent is against total cost; day change percent is
 * against yesterday's value of today's holdings (total value − day change). Best and worst
 * performers rank by unrealized percent, ties by symbol.
 */
export function summarisePositions(
  positions: readonly ValuedPosition[],
  realizedPnl: number,
): PortfolioTotals {
  let totalValue = 0;
  let totalCost = 0;
  let dayChange = 0;
  const bySector = new Map<string, number>();
  for (const position of positions) {
    totalValue += position.marketValue;
    totalCost += position.costBasis;
    dayChange += position.dayChange;
    bySector.set(position.sector, (bySector.get(position.sector) ?? 0) + position.marketValue);
  }
  const ranked = [...positions].sort(byUnrealizedPercent);
  const performer = (position: ValuedPosition | undefined): Performer | null =>
    position ? { symbol: position.symbol, unrealizedPnlPercent: position.unrealizedPnlPercent } : null;
  return {
    totalValue,
    totalCost,
    unrealizedPnl: totalValue - totalCost,
    unrealizedPnlPercent: percentOf(totalValue - totalCost, totalCost),
    realizedPnl,
    dayChange,
    dayChangePercent: percentOf(dayChange, totalValue - dayChange),
    positionsCount: positions.length,
    sectorAllocation: [...bySector]
      .map(([sector, marketValue]) => ({ sector, marketValue, weight: percentOf(marketValue, totalValue) }))
      .sort((a, b) => b.marketValue - a.marketValue || a.sector.localeCompare(b.sector)),
    bestPerformer: performer(ranked[0]),
    worstPerformer: performer(ranked[ranked.length - 1]),
  };
}

/** Best performer first: by unrealized percent, highest first, ties by symbol. */
export function byUnrealizedPercent(a: ValuedPosition, b: ValuedPosition): number {
  return b.unrealizedPnlPercent - a.unrealizedPnlPercent || a.symbol.localeCompare(b.symbol);
}
