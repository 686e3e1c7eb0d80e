// Time-weighted returns of the ledger's portfolio, valued at daily closes.
//
// Each valuation day d links a return in which the day's trades are cash flows, not performance:
//   r_d = (V_d − V_{d−1} − (B_d − S_d)) / (V_{d−1} + B_d)
// V is the holdings' value at the close, B the money paid for the day's buys (quantity × price
// + fees), S the proceeds of its sells (quantity × price − fees). Buys count as invested from the
// start of their day and sells as withdrawn at its end, which is exact for a buy at the open and a
// sell at the close and never divides by a negative. A period's return is Π(1 + r_d) − 1 over the
// valuation days after its start, up to the as-of day. A period in which no capital was at work
// (V_{d−1} + B_d = 0 on every one of its days, e.g. after everything was sold) has no return: null.
//
// Dividends (net of withholding tax) are income of their position: proceeds S like a sell's, so they
// count in the return. A fee charged on a position is money paid in without value, B like a buy's,
// so it lowers the return. A split changes the quantity and the trade price it is valued at by its
// ratio, not the value. Deposits, withdrawals, interest and fees not charged on a position belong to
// the cash account, which these returns do not measure: they measure the holdings.
//
// Days are the exchange's dates (America/New_York): a trade at 20:00 New York time (01:00 UTC the
// next day) belongs to its New York day, and the periods end on New York's today. A trade recorded
// with a date only is stored at midnight UTC and stays on that date.
import { newYorkTime } from '../../../common/time/new-york-time';
import { unreachable } from '../../../common/types/unreachable';
import { DailyClose } from './daily-returns';
import {
  cashFlow,
  compareLedgerEntries,
  HoldingEntry,
  isHoldingEntry,
  LedgerEntry,
  splitFactor,
} from './ledger-replay';

export const PERFORMANCE_PERIODS = ['1M', '3M', 'YTD', '1Y', 'ALL'] as const;
export type PerformancePeriod = (typeof PERFORMANCE_PERIODS)[number];
/** The summary's periods and the longer ones a chart may span. */
export const HISTORY_PERIODS = ['1M', '3M', 'YTD', '1Y', '5Y', 'ALL'] as const;
export type HistoryPeriod = (typeof HISTORY_PERIODS)[number];
export type PeriodReturns = Record<PerformancePeriod, number | null>;

export interface DailyValuation {
  date: string;
  value: number;
  dailyReturn: number;
  /** Whether any capital was invested during the day (V_{d−1} + B_d > 0). */
  atWork: boolean;
  /** B_d: paid for the day's buys, fees included, and fees charged on positions. */
  bought: number;
  /** S_d: received for the day's sells, net of fees, and dividends, net of withholding tax. */
  sold: number;
}

/** The exchange's (New York) calendar day of an instant, YYYY-MM-DD. */
export function exchangeDay(instant: Date): string {
  return newYorkTime(instant).date;
}

const MS_PER_DAY = 86_400_000;

/**
 * The exchange day of a trade: its New York date, except for the midnight-UTC instant that a
 * date-only `executed_at` (`2025-01-06`) is stored as, which means that very date.
 */
export function tradeDay(executedAt: Date): string {
  return executedAt.getTime() % MS_PER_DAY === 0 ? utcDay(executedAt) : exchangeDay(executedAt);
}

/** UTC calendar day of an instant, YYYY-MM-DD. */
export function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/**
 * Valuation of the ledger's holdings on every trading day (a date with any close) from the first
 * trade to asOf, plus the days with trades. A symbol is priced at its latest close, or at its
 * latest trade price when that is more recent.
 */
export function dailyValuations(
  entries: readonly LedgerEntry[],
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  asOf: string,
): DailyValuation[] {
  let previousValue = 0;
  const valuations: DailyValuation[] = [];
  walkValuationDays(entries, closesBySymbol, asOf, ({ date, value, bought, sold }) => {
    const investedBase = previousValue + bought;
    const dailyReturn = investedBase > 0 ? (value - previousValue - (bought - sold)) / investedBase : 0;
    valuations.push({ date, value, dailyReturn, atWork: investedBase > 0, bought, sold });
    previousValue = value;
  });
  return valuations;
}

/** The holdings at one valuation day's close; the maps are reused for the next day. */
export interface ValuationDay {
  date: string;
  value: number;
  bought: number;
  sold: number;
  /** Per symbol ever traded so far: the quantity held (0 once sold out) ... */
  quantityBySymbol: ReadonlyMap<string, number>;
  /** ... and the price it is valued at, its close or a later trade's price. */
  priceBySymbol: ReadonlyMap<string, number>;
  /** Per symbol traded this day: B − S of its trades. */
  netFlowBySymbol: ReadonlyMap<string, number>;
}

/** Calls `visit` for each valuation day of dailyValuations, oldest first. */
export function walkValuationDays(
  entries: readonly LedgerEntry[],
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  asOf: string,
  visit: (day: ValuationDay) => void,
): void {
  // Each entry's day is worked out once: the date conversion is most of this function's cost otherwise.
  const ordered = entries
    .filter(isHoldingEntry)
    .map((entry) => ({ entry, day: tradeDay(entry.executedAt) }))
    .filter(({ day }) => day <= asOf)
    .sort((a, b) => compareLedgerEntries(a.entry, b.entry));
  if (ordered.length === 0) return;
  const firstDay = ordered[0].day;
  const days = valuationDays(ordered, closesBySymbol, firstDay, asOf);

  const quantities = new Map<string, number>();
  const prices = new Map<string, number>();
  const closeCursor = new Map<string, number>();
  const lastTradeDay = new Map<string, string>();
  const netFlowBySymbol = new Map<string, number>();
  let entryCursor = 0;

  for (const day of days) {
    let bought = 0;
    let sold = 0;
    netFlowBySymbol.clear();
    while (entryCursor < ordered.length && ordered[entryCursor].day <= day) {
      const { entry, day: tradeDay } = ordered[entryCursor];
      entryCursor += 1;
      const held = quantities.get(entry.symbol) ?? 0;
      let netFlow = 0;
      switch (entry.side) {
        case 'buy': {
          const paid = entry.quantity * entry.price + entry.fees;
          quantities.set(entry.symbol, held + entry.quantity);
          bought += paid;
          netFlow = paid;
          prices.set(entry.symbol, entry.price);
          lastTradeDay.set(entry.symbol, tradeDay);
          break;
        }
        case 'sell': {
          const proceeds = entry.quantity * entry.price - entry.fees;
          quantities.set(entry.symbol, held - entry.quantity);
          sold += proceeds;
          netFlow = -proceeds;
          prices.set(entry.symbol, entry.price);
          lastTradeDay.set(entry.symbol, tradeDay);
          break;
        }
        case 'dividend': {
          const income = cashFlow(entry);
          sold += income;
          netFlow = -income;
          break;
        }
        case 'fee': {
          const paid = -cashFlow(entry);
          bought += paid;
          netFlow = paid;
          break;
        }
        case 'split': {
          const factor = splitFactor(entry);
          quantities.set(entry.symbol, held * factor);
          const price = prices.get(entry.symbol);
          if (price !== undefined) prices.set(entry.symbol, price / factor);
          break;
        }
        case 'deposit':
        case 'withdrawal':
        case 'interest':
          break;
        default:
          unreachable(entry.side);
      }
      netFlowBySymbol.set(entry.symbol, (netFlowBySymbol.get(entry.symbol) ?? 0) + netFlow);
    }
    let value = 0;
    for (const [symbol, quantity] of quantities) {
      const close = latestCloseOnOrBefore(closesBySymbol.get(symbol) ?? [], day, closeCursor, symbol);
      if (close && close.date >= lastTradeDay.get(symbol)!) prices.set(symbol, close.close);
      value += quantity * (prices.get(symbol) ?? 0);
    }
    visit({
      date: day,
      value,
      bought,
      sold,
      quantityBySymbol: quantities,
      priceBySymbol: prices,
      netFlowBySymbol,
    });
  }
}

/** Start boundary of each period: the return covers valuation days strictly after it. */
export function periodStart(period: HistoryPeriod, asOf: string, firstTradeDay: string): string {
  switch (period) {
    case '1M':
      return shiftMonths(asOf, -1);
    case '3M':
      return shiftMonths(asOf, -3);
    case '1Y':
      return shiftMonths(asOf, -12);
    case '5Y':
      return shiftMonths(asOf, -60);
    case 'YTD':
      return `${Number(asOf.slice(0, 4)) - 1}-12-31`;
    case 'ALL':
      return previousDay(firstTradeDay);
  }
}

/**
 * Time-weighted return per period; null for a period whose history the ledger does not reach (the
 * first trade is later than the day after the period's start), for a period without capital at
 * work, and for every period of an empty ledger.
 */
export function timeWeightedReturns(
  entries: readonly LedgerEntry[],
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  asOf: string,
): PeriodReturns {
  return timeWeightedPeriodReturns(dailyValuations(entries, closesBySymbol, asOf), asOf);
}

/** timeWeightedReturns from the ledger's daily valuations. */
export function timeWeightedPeriodReturns(
  valuations: readonly DailyValuation[],
  asOf: string,
): PeriodReturns {
  return returnsPerPeriod(valuations, asOf, (start) => {
    let growth = 1;
    let atWork = false;
    for (const valuation of valuations) {
      if (valuation.date <= start) continue;
      growth *= 1 + valuation.dailyReturn;
      atWork ||= valuation.atWork;
    }
    return atWork ? growth - 1 : null;
  });
}

/**
 * `returnAfter(start)` for each period whose history the ledger reaches (its first trade is no
 * later than the day after the period's start); null for the other periods and for an empty ledger.
 */
export function returnsPerPeriod(
  valuations: readonly DailyValuation[],
  asOf: string,
  returnAfter: (start: string) => number | null,
): PeriodReturns {
  const result = Object.fromEntries(PERFORMANCE_PERIODS.map((period) => [period, null])) as PeriodReturns;
  if (valuations.length === 0) return result;
  const firstTradeDay = valuations[0].date;
  for (const period of PERFORMANCE_PERIODS) {
    const start = periodStart(period, asOf, firstTradeDay);
    if (start >= previousDay(firstTradeDay)) result[period] = returnAfter(start);
  }
  return result;
}

function valuationDays(
  entries: readonly { entry: HoldingEntry; day: string }[],
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  firstDay: string,
  asOf: string,
): string[] {
  const days = new Set(entries.map(({ day }) => day));
  const symbols = new Set(entries.map(({ entry }) => entry.symbol));
  for (const symbol of symbols) {
    for (const close of closesBySymbol.get(symbol) ?? []) {
      if (close.date >= firstDay && close.date <= asOf) days.add(close.date);
    }
  }
  return [...days].sort();
}

/** Walks a per-symbol cursor forward: valuation days are visited in ascending order. */
function latestCloseOnOrBefore(
  closes: readonly DailyClose[],
  day: string,
  cursors: Map<string, number>,
  symbol: string,
): DailyClose | null {
  let cursor = cursors.get(symbol) ?? -1;
  while (cursor + 1 < closes.length && closes[cursor + 1].date <= day) cursor += 1;
  cursors.set(symbol, cursor);
  return cursor >= 0 ? closes[cursor] : null;
}

function shiftMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastOfMonth = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date, lastOfMonth));
  return utcDay(target);
}

export function previousDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return utcDay(date);
}
