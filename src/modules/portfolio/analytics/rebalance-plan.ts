// Trades that move a portfolio toward target weights.
//
// T = holdings' market value + extra cash; it is the same before and after, since trades happen
// at the current prices without fees. For each symbol the drift is 100 × value / T − target (in
// percentage points). Symbols drifting more than the tolerance trade to their target; the others
// stay, unless buys need more money than the sells and cash provide: then overweight symbols
// within tolerance sell toward (never past) their target, largest drift first. Buys never cost
// more than the sells' proceeds plus the cash.
//
// Whole shares (the default): sells round up and buys round down, then leftover money buys one
// more share of a symbol still short by more than half a share, largest shortfall first; so every
// symbol ends within its tolerance or within one share of its target. Fractional: quantities to
// six decimals, rounded so that the money never runs out.

export interface RebalanceHolding {
  symbol: string;
  quantity: number;
  price: number;
}

export interface SymbolTarget {
  symbol: string;
  /** Percent of T. */
  weight: number;
}

export interface RebalanceInput {
  holdings: readonly RebalanceHolding[];
  targets: readonly SymbolTarget[];
  /** Current price of every held and every targeted symbol. */
  prices: ReadonlyMap<string, number>;
  /** Percentage points of drift left alone. */
  tolerance: number;
  cash: number;
  fractional: boolean;
}

/**
 * What a planned trade does, apart from the ledger's transaction kinds: a plan only ever buys or
 * sells, whatever else the ledger comes to record.
 */
export const REBALANCE_TRADE_SIDES = ['buy', 'sell'] as const;
export type RebalanceTradeSide = (typeof REBALANCE_TRADE_SIDES)[number];

export interface PlannedTrade {
  symbol: string;
  side: RebalanceTradeSide;
  quantity: number;
  price: number;
  value: number;
}

export interface SymbolWeight {
  symbol: string;
  weight: number;
}

export interface RebalancePlan {
  trades: PlannedTrade[];
  before: SymbolWeight[];
  after: SymbolWeight[];
  /** One-way turnover: (Σ buy value + Σ sell value) / 2 / T, in percent. */
  turnover: number;
  totalValue: number;
  cashRemaining: number;
}

export const FRACTIONAL_DECIMALS = 6;
const FRACTIONAL_STEP = 10 ** FRACTIONAL_DECIMALS;
const DRIFT_EPSILON = 1e-9;

interface Line {
  symbol: string;
  price: number;
  held: number;
  quantity: number;
  targetValue: number;
  driftPoints: number;
}

export function planRebalance(input: RebalanceInput): RebalancePlan {
  const lines = buildLines(input);
  const totalValue = lines.reduce((sum, line) => sum + line.held * line.price, 0) + input.cash;
  if (totalValue <= 0)
    return { trades: [], before: [], after: [], turnover: 0, totalValue: 0, cashRemaining: 0 };
  for (const line of lines)
    line.driftPoints = (100 * line.held * line.price) / totalValue - (100 * line.targetValue) / totalValue;

  const outOfBand = (line: Line) => Math.abs(line.driftPoints) > input.tolerance + DRIFT_EPSILON;
  const valueOf = (line: Line) => line.quantity * line.price;
  let money = input.cash;

  for (const line of lines.filter((candidate) => outOfBand(candidate) && candidate.driftPoints > 0)) {
    money += sell(line, valueOf(line) - line.targetValue, input.fractional);
  }
  const buys = lines.filter((candidate) => outOfBand(candidate) && candidate.driftPoints < 0);
  const wanted = (line: Line) => line.targetValue - valueOf(line);
  let shortfall = buys.reduce((sum, line) => sum + wanted(line), 0) - money;
  const fundingSources = lines
    .filter((candidate) => !outOfBand(candidate) && candidate.driftPoints > 0)
    .sort((a, b) => b.driftPoints - a.driftPoints);
  for (const line of fundingSources) {
    if (shortfall <= 0) break;
    const proceeds = sell(line, Math.min(shortfall, valueOf(line) - line.targetValue), input.fractional);
    money += proceeds;
    shortfall -= proceeds;
  }

  const totalWanted = buys.reduce((sum, line) => sum + wanted(line), 0);
  const scale = totalWanted > money ? money / totalWanted : 1;
  for (const line of buys) {
    const affordable = roundDown(money / line.price, input.fractional);
    const shares = Math.min(affordable, roundDown((wanted(line) * scale) / line.price, input.fractional));
    line.quantity += shares;
    money -= shares * line.price;
  }
  if (!input.fractional) money = buyRemainingShares(buys, money);

  const trades = lines.filter((line) => line.quantity !== line.held).map((line) => toTrade(line));
  const tradedValue = trades.reduce((sum, trade) => sum + trade.value, 0);
  const weights = (quantityOf: (line: Line) => number) =>
    lines.map((line) => ({
      symbol: line.symbol,
      weight: (100 * quantityOf(line) * line.price) / totalValue,
    }));
  return {
    trades,
    before: weights((line) => line.held),
    after: weights((line) => line.quantity),
    turnover: (100 * tradedValue) / 2 / totalValue,
    totalValue,
    cashRemaining: totalValue - lines.reduce((sum, line) => sum + valueOf(line), 0),
  };
}

function buildLines(input: RebalanceInput): Line[] {
  const bySymbol = new Map<string, Line>();
  const lineFor = (symbol: string) => {
    let line = bySymbol.get(symbol);
    if (!line) {
      const price = input.prices.get(symbol);
      if (price === undefined || !(price > 0)) throw new RangeError(`no price for ${symbol}`);
      line = { symbol, price, held: 0, quantity: 0, targetValue: 0, driftPoints: 0 };
      bySymbol.set(symbol, line);
    }
    return line;
  };
  for (const holding of input.holdings) {
    const line = lineFor(holding.symbol);
    line.held += holding.quantity;
    line.quantity += holding.quantity;
  }
  const totalValue =
    [...bySymbol.values()].reduce((sum, line) => sum + line.held * line.price, 0) + input.cash;
  for (const target of input.targets) lineFor(target.symbol).targetValue = (target.weight / 100) * totalValue;
  return [...bySymbol.values()].sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/** Sells about `value` of the line (rounded up to whole shares), never more than held; returns the proceeds. */
function sell(line: Line, value: number, fractional: boolean): number {
  if (value <= 0) return 0;
  const liquidate = line.targetValue === 0 && line.quantity === line.held;
  const shares = liquidate ? line.quantity : Math.min(line.quantity, roundUp(value / line.price, fractional));
  line.quantity -= shares;
  return shares * line.price;
}

/** Spends leftover money one share at a time on the symbol furthest below target, while that helps. */
function buyRemainingShares(buys: Line[], money: number): number {
  for (;;) {
    let furthest: Line | undefined;
    let furthestShortBy = 0;
    for (const line of buys) {
      const shortBy = line.targetValue - line.quantity * line.price;
      // The first of equal shortfalls, as in the order of `buys`.
      if (shortBy > line.price / 2 && line.price <= money && (!furthest || shortBy > furthestShortBy)) {
        furthest = line;
        furthestShortBy = shortBy;
      }
    }
    if (!furthest) return money;
    furthest.quantity += 1;
    money -= furthest.price;
  }
}

function toTrade(line: Line): PlannedTrade {
  const difference = line.quantity - line.held;
  const quantity = Math.abs(difference);
  return {
    symbol: line.symbol,
    side: difference > 0 ? 'buy' : 'sell',
    quantity,
    price: line.price,
    value: quantity * line.price,
  };
}

function roundDown(shares: number, fractional: boolean): number {
  if (shares <= 0) return 0;
  return fractional ? Math.floor(shares * FRACTIONAL_STEP) / FRACTIONAL_STEP : Math.floor(shares);
}

function roundUp(shares: number, fractional: boolean): number {
  return fractional ? Math.ceil(shares * FRACTIONAL_STEP - 1e-7) / FRACTIONAL_STEP : Math.ceil(shares - 1e-9);
}
