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
// with a date only belongs to that date. Each entry carries that date (`tradeDate`), fixed when it
// was recorded, so a date-time at midnight UTC is dated like any other time of day.
import { newYorkTime } from '../../../common/time/new-york-time';
import { unreachable } from '../../../common/types/unreachable';
import { DailyClose } from './daily-returns';
import {
  cashFlow,
  HoldingEntry,
  inExecutionOrder,
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
  return [...valueLedger(entries, closesBySymbol, asOf).days];
}

/** The daily valuations of a ledger, and where their walk stood at the start of the last day. */
export interface LedgerValuations {
  days: readonly DailyValuation[];
  checkpoint: ValuationCheckpoint | null;
}

export function valueLedger(
  entries: readonly LedgerEntry[],
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  asOf: string,
): LedgerValuations {
  const days = new ValuationSeries(0);
  const checkpoint = walkValuationDays(entries, closesBySymbol, asOf, (day) => days.add(day));
  return { days: days.valuations, checkpoint };
}

/**
 * The valuations of `earlier`'s ledger followed by `appended` (trades after all of it in execution
 * order), valued with the same closes and asOf, computed from earlier's last day on instead of from
 * the first trade: the same figures as valueLedger over the whole ledger. Null when an appended
 * trade falls before earlier's last valuation day, which only a whole walk can value.
 */
export function valueAppended(
  earlier: LedgerValuations,
  appended: readonly LedgerEntry[],
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  asOf: string,
): LedgerValuations | null {
  const { checkpoint } = earlier;
  if (!checkpoint || checkpoint.asOf !== asOf) return null;
  const kept = earlier.days.slice(0, -1);
  const days = new ValuationSeries(kept.at(-1)?.value ?? 0, kept);
  const resumed = resumeValuationDays(checkpoint, appended, closesBySymbol, (day) => days.add(day));
  return resumed && { days: days.valuations, checkpoint: resumed };
}

/** Daily valuations with each day's return, the day's trades counted as cash flows. */
class ValuationSeries {
  readonly valuations: DailyValuation[];

  constructor(
    private previousValue: number,
    earlier: readonly DailyValuation[] = [],
  ) {
    this.valuations = [...earlier];
  }

  add({ date, value, bought, sold }: ValuationDay): void {
    const investedBase = this.previousValue + bought;
    const dailyReturn = investedBase > 0 ? (value - this.previousValue - (bought - sold)) / investedBase : 0;
    this.valuations.push({ date, value, dailyReturn, atWork: investedBase > 0, bought, sold });
    this.previousValue = value;
  }
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

/**
 * Where a valuation walk stood at the start of its last day, before that day's trades: a walk over
 * the same trades plus later ones resumes from here (see resumeValuationDays).
 */
export interface ValuationCheckpoint {
  date: string;
  asOf: string;
  /** The trades the walk took on that day, in execution order, with their trade days. */
  dayEntries: readonly HoldingEntry[];
  dayTradeDays: readonly string[];
  holdings: WalkHoldings;
}

/** A walk's running state per symbol. */
interface WalkHoldings {
  quantities: Map<string, number>;
  prices: Map<string, number>;
  closeCursor: Map<string, number>;
  lastTradeDay: Map<string, string>;
}

/**
 * Calls `visit` for each valuation day of dailyValuations, oldest first, and returns where it stood
 * at the start of the last day (null when no trade falls on or before asOf).
 */
export function walkValuationDays(
  entries: readonly LedgerEntry[],
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  asOf: string,
  visit: (day: ValuationDay) => void,
): ValuationCheckpoint | null {
  const ordered: HoldingEntry[] = [];
  const tradeDays: string[] = [];
  for (const entry of inExecutionOrder(entries)) {
    if (!isHoldingEntry(entry)) continue;
    const day = entry.tradeDate;
    if (day > asOf) continue;
    ordered.push(entry);
    tradeDays.push(day);
  }
  if (ordered.length === 0) return null;
  const days = valuationDays(ordered, tradeDays, closesBySymbol, tradeDays[0], asOf);
  const holdings = {
    quantities: new Map(),
    prices: new Map(),
    closeCursor: new Map(),
    lastTradeDay: new Map(),
  };
  return walkDays(holdings, ordered, tradeDays, days, closesBySymbol, asOf, visit);
}

/**
 * Carries a walk on from `checkpoint` over `appended` trades (after all the walk's trades in
 * execution order, with the same closes): visits the checkpoint's day again with its trades and the
 * appended ones of that day, then the appended trades' later days. Null, visiting nothing, when an
 * appended trade falls before the checkpoint's day.
 */
export function resumeValuationDays(
  checkpoint: ValuationCheckpoint,
  appended: readonly LedgerEntry[],
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  visit: (day: ValuationDay) => void,
): ValuationCheckpoint | null {
  const ordered = [...checkpoint.dayEntries];
  const tradeDays = [...checkpoint.dayTradeDays];
  for (const entry of appended) {
    if (!isHoldingEntry(entry)) continue;
    const day = entry.tradeDate;
    if (day > checkpoint.asOf) continue;
    if (day < checkpoint.date) return null;
    ordered.push(entry);
    tradeDays.push(day);
  }
  const days = valuationDays(ordered, tradeDays, closesBySymbol, checkpoint.date, checkpoint.asOf);
  if (days[0] !== checkpoint.date) days.unshift(checkpoint.date);
  const { quantities, prices, closeCursor, lastTradeDay } = checkpoint.holdings;
  const holdings = {
    quantities: new Map(quantities),
    prices: new Map(prices),
    closeCursor: new Map(closeCursor),
    lastTradeDay: new Map(lastTradeDay),
  };
  return walkDays(holdings, ordered, tradeDays, days, closesBySymbol, checkpoint.asOf, visit);
}

/** Values `days` in order, taking each trade on the first of them on or after its trade day. */
function walkDays(
  holdings: WalkHoldings,
  ordered: readonly HoldingEntry[],
  tradeDays: readonly string[],
  days: readonly string[],
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  asOf: string,
  visit: (day: ValuationDay) => void,
): ValuationCheckpoint {
  const { quantities, prices, closeCursor, lastTradeDay } = holdings;
  const netFlowBySymbol = new Map<string, number>();
  let checkpoint: ValuationCheckpoint | undefined;
  let entryCursor = 0;

  for (const [dayIndex, day] of days.entries()) {
    if (dayIndex === days.length - 1) {
      checkpoint = {
        date: day,
        asOf,
        dayEntries: ordered.slice(entryCursor),
        dayTradeDays: tradeDays.slice(entryCursor),
        holdings: {
          quantities: new Map(quantities),
          prices: new Map(prices),
          closeCursor: new Map(closeCursor),
          lastTradeDay: new Map(lastTradeDay),
        },
      };
    }
    let bought = 0;
    let sold = 0;
    // Shares moved in and out, at the price they are valued at: netted over the day, so that the two
    // legs of a transfer between accounts, both in the ledger, are no flow at all.
    let transferred = 0;
    netFlowBySymbol.clear();
    while (entryCursor < ordered.length && tradeDays[entryCursor] <= day) {
      const entry = ordered[entryCursor];
      const tradedOn = tradeDays[entryCursor];
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
          lastTradeDay.set(entry.symbol, tradedOn);
          break;
        }
        case 'sell': {
          const proceeds = entry.quantity * entry.price - entry.fees;
          quantities.set(entry.symbol, held - entry.quantity);
          sold += proceeds;
          netFlow = -proceeds;
          prices.set(entry.symbol, entry.price);
          lastTradeDay.set(entry.symbol, tradedOn);
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
        case 'transfer_in':
        case 'transfer_out': {
          if (entry.symbol === null) break;
          // Moved at the close of its day, as a trade at that price would be (so the moved shares
          // make no gain that day on either side); shares first seen arriving without a close yet
          // are valued at their cost basis.
          const moved = entry.side === 'transfer_in' ? entry.quantity : -entry.quantity;
          const closes = closesBySymbol.get(entry.symbol) ?? [];
          const close = latestCloseOnOrBefore(closes, tradedOn, closeCursor, entry.symbol);
          const traded = lastTradeDay.get(entry.symbol);
          const price =
            close && (traded === undefined || close.date >= traded)
              ? close.close
              : (prices.get(entry.symbol) ?? (entry.amount ?? 0) / entry.quantity);
          if (traded === undefined) lastTradeDay.set(entry.symbol, close?.date ?? tradedOn);
          prices.set(entry.symbol, price);
          quantities.set(entry.symbol, held + moved);
          netFlow = moved * price;
          transferred += netFlow;
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
    if (transferred > 0) bought += transferred;
    else sold -= transferred;
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
  return checkpoint!;
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

/** The trade days and the close dates of the traded symbols from `from` to asOf, in order. */
function valuationDays(
  entries: readonly HoldingEntry[],
  tradeDays: readonly string[],
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>,
  from: string,
  asOf: string,
): string[] {
  const days = new Set<string>();
  const symbols = new Set<string>();
  for (let index = 0; index < entries.length; index += 1) {
    symbols.add(entries[index].symbol);
    if (tradeDays[index] !== tradeDays[index - 1]) days.add(tradeDays[index]);
  }
  for (const symbol of symbols) {
    for (const close of closesBySymbol.get(symbol) ?? []) {
      if (close.date >= from && close.date <= asOf) days.add(close.date);
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
