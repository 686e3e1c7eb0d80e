// Daily simple returns on a common trading calendar.

export interface DailyClose {
  /** Trading day, YYYY-MM-DD. */
  date: string;
  close: number;
}

export interface AlignedReturns {
  /** The trading day before the first return: the window's starting valuation date. */
  startDate: string;
  /** End date of each return, one per observation. */
  dates: string[];
  returnsBySymbol: Map<string, number[]>;
}

/** r_t = P_t / P_{t-1} − 1 */
export function simpleReturns(prices: readonly number[]): number[] {
  const returns = new Array<number>(Math.max(0, prices.length - 1));
  for (let i = 1; i < prices.length; i += 1) returns[i - 1] = prices[i] / prices[i - 1] - 1;
  return returns;
}

/**
 * Daily returns of every series over the last `lookbackDays` returns of the union of their
 * trading days. A day missing inside a series (a gap in the data) carries its last close forward,
 * which counts as a zero return; the window starts no earlier than the latest first close, so
 * every series has a price on every day of it. Closes dated after `through` (when given) are left
 * out. Null when fewer than two prices overlap.
 */
export function alignDailyReturns(
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  lookbackDays: number,
  through?: string,
): AlignedReturns | null {
  if (closesBySymbol.size === 0) return null;
  const allDates = unionOfDates(closesBySymbol);
  const calendar = through === undefined ? allDates : allDates.filter((date) => date <= through);
  let firstCommonIndex = 0;
  for (const closes of closesBySymbol.values()) {
    if (closes.length === 0) return null;
    firstCommonIndex = Math.max(firstCommonIndex, lowerBound(calendar, closes[0].date));
  }
  const startIndex = Math.max(firstCommonIndex, calendar.length - 1 - lookbackDays);
  const windowDates = calendar.slice(startIndex);
  if (windowDates.length < 2) return null;

  const returnsBySymbol = new Map<string, number[]>();
  for (const [symbol, closes] of closesBySymbol) {
    returnsBySymbol.set(symbol, simpleReturns(pricesOn(windowDates, closes)));
  }
  return { startDate: windowDates[0], dates: windowDates.slice(1), returnsBySymbol };
}

/** Σ w_i r_i,t for each day: a portfolio rebalanced daily to constant weights (fractions). */
export function constantWeightPortfolioReturns(
  returnsBySymbol: ReadonlyMap<string, readonly number[]>,
  weights: ReadonlyMap<string, number>,
): number[] {
  let portfolio: number[] | null = null;
  for (const [symbol, weight] of weights) {
    const returns = returnsBySymbol.get(symbol);
    if (!returns) throw new RangeError(`no returns for ${symbol}`);
    portfolio ??= new Array<number>(returns.length).fill(0);
    for (let t = 0; t < returns.length; t += 1) portfolio[t] += weight * returns[t];
  }
  return portfolio ?? [];
}

/** Wealth of one unit invested at the start date, compounded by the returns. */
export function wealthIndex(
  startDate: string,
  dates: readonly string[],
  returns: readonly number[],
): { date: string; value: number }[] {
  const points = [{ date: startDate, value: 1 }];
  let value = 1;
  for (let t = 0; t < returns.length; t += 1) {
    value *= 1 + returns[t];
    points.push({ date: dates[t], value });
  }
  return points;
}

function unionOfDates(closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>): string[] {
  const dates = new Set<string>();
  for (const closes of closesBySymbol.values()) for (const close of closes) dates.add(close.date);
  return [...dates].sort();
}

/** Prices on each window date, carrying the last close forward over gaps (closes sorted by date). */
function pricesOn(windowDates: readonly string[], closes: readonly DailyClose[]): number[] {
  const prices = new Array<number>(windowDates.length);
  let cursor = Math.max(
    0,
    lowerBound(
      closes.map((close) => close.date),
      windowDates[0],
    ) - 1,
  );
  let last = closes[cursor].close;
  for (let i = 0; i < windowDates.length; i += 1) {
    while (cursor < closes.length && closes[cursor].date <= windowDates[i]) {
      last = closes[cursor].close;
      cursor += 1;
    }
    prices[i] = last;
  }
  return prices;
}

/** Index of the first element >= target in a sorted array. */
export function lowerBound(sorted: readonly string[], target: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < target) low = middle + 1;
    else high = middle;
  }
  return low;
}
