// Values held positions at live quotes. Percentages are in percent (12.5 means 12.5%).
import { HeldPosition } from './ledger-replay';

export interface PositionQuote {
  price: number;
  /** Price change since the previous close. */
  change: number;
  /** Time of the quote. */
  timestamp: Date;
}

export interface ValuedPosition {
  symbol: string;
  quantity: number;
  currentPrice: number;
  costBasis: number;
  marketValue: number;
  unrealizedPnl: number;
  unrealizedPnlPercent: number;
  dayChange: number;
  dayChangePercent: number;
  weight: number;
  sector: string;
  lastUpdated: Date;
}

/**
 * market value = quantity × price; unrealized P&L = market value − cost basis (percent of cost
 * basis); day change = quantity × the quote's change (percent of the previous close's value);
 * weight = market value / Σ market values. Sorted by weight, heaviest first, then by symbol.
 */
export function valuePositions(
  held: Iterable<HeldPosition>,
  quotes: ReadonlyMap<string, PositionQuote>,
  sectorOf: (symbol: string) => string,
): ValuedPosition[] {
  const valued: ValuedPosition[] = [];
  let totalValue = 0;
  for (const position of held) {
    const quote = quotes.get(position.symbol);
    if (!quote) throw new RangeError(`no quote for ${position.symbol}`);
    const marketValue = position.quantity * quote.price;
    const unrealizedPnl = marketValue - position.costBasis;
    const dayChange = position.quantity * quote.change;
    const previousValue = marketValue - dayChange;
    totalValue += marketValue;
    valued.push({
      symbol: position.symbol,
      quantity: position.quantity,
      currentPrice: quote.price,
      costBasis: position.costBasis,
      marketValue,
      unrealizedPnl,
      unrealizedPnlPercent: percentOf(unrealizedPnl, position.costBasis),
      dayChange,
      dayChangePercent: percentOf(dayChange, previousValue),
      weight: 0,
      sector: sectorOf(position.symbol),
      lastUpdated: quote.timestamp,
    });
  }
  for (const position of valued) position.weight = percentOf(position.marketValue, totalValue);
  return valued.sort((a, b) => b.weight - a.weight || a.symbol.localeCompare(b.symbol));
}

/** 100 × part / whole, 0 when the whole is 0 (nothing to compare against). */
export function percentOf(part: number, whole: number): number {
  return whole === 0 ? 0 : (100 * part) / whole;
}

/**
 * The positions reweighed with the cash balance as one more holding: each weight, and the cash's,
 * is a percent of the market values + the balance. A negative balance (buys never funded) is
 * no holding: the weights then stay those of the positions alone and the cash weighs 0.
 */
export function weighWithCash(
  positions: readonly ValuedPosition[],
  cashBalance: number,
): { positions: ValuedPosition[]; cashWeight: number } {
  const cash = Math.max(0, cashBalance);
  const total = positions.reduce((sum, position) => sum + position.marketValue, 0) + cash;
  return {
    positions: positions.map((position) => ({ ...position, weight: percentOf(position.marketValue, total) })),
    cashWeight: percentOf(cash, total),
  };
}
