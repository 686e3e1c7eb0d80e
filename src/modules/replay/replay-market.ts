import { DailyBar, ProviderQuote, StockSplit } from '../../integrations/vendors';
import {
  cyclePosition,
  dateOfTradingDay,
  intradayBar,
  isHoliday,
  sessionAt,
  nextTradingDay,
  previousTradingDay,
  tradingDayOnOrAfter,
  tradingDayOnOrBefore,
} from './replay-calendar';
import { ClosedSessionBars } from './closed-session-bars';
import { HistoricalBar, ReplayDataset } from './replay-dataset';

/** Trading days in the 52-week window, and in the average the day's volume is compared with. */
const YEAR_OF_TRADING_DAYS = 260;
const AVERAGE_VOLUME_DAYS = 20;
/** Bound of the closed sessions' daily bars shared between answers (≈ 180 bytes each): 80 symbols over five years. */
const SHARED_BARS = 100_000;

/**
 * The splits inside the shipped history. Its prices are adjusted for them (continuous across the
 * split), as the source published them.
 */
const HISTORICAL_SPLITS: readonly (StockSplit & { symbol: string })[] = [
  { symbol: 'AAPL', date: '2014-06-09', to: 7, from: 1 },
  { symbol: 'V', date: '2015-03-19', to: 4, from: 1 },
  { symbol: 'NFLX', date: '2015-07-15', to: 7, from: 1 },
];

/** A historical split placed in the cycle: effective at the open of `historicalDay`. */
interface CycleSplit {
  historicalDay: number;
  to: number;
  from: number;
}

/** One series on one replay trading day, with the context a market wire story needs. */
export interface SessionMove {
  symbol: string;
  name: string;
  /** Spec sector for stocks, null for indices. */
  sector: string | null;
  open: number;
  high: number;
  low: number;
  close: number;
  previousClose: number;
  change: number;
  changePercent: number;
  volume: number;
  /** Mean volume of the 20 sessions before this one. */
  averageVolume: number;
  /** Highest high and lowest low of the 260 sessions up to and including this one. */
  high52Week: number;
  low52Week: number;
}

/** Every stock's and index's move on one trading day (YYYY-MM-DD). */
export interface SessionMoves {
  date: string;
  stocks: SessionMove[];
  indices: SessionMove[];
}

/**
 * The historical window replayed on today's calendar (see replay-calendar.ts): cycle q scales the
 * history by growth^q, growth being the series' last close over its first, so chained daily
 * returns stay continuous from one cycle to the next.
 */
export class ReplayMarket {
  private readonly growth = new Map<string, number>();
  private readonly names = new Map<string, { name: string; sector: string | null }>();
  private readonly splitsBySymbol = new Map<string, CycleSplit[]>();
  private readonly closedBars = new ClosedSessionBars(SHARED_BARS);

  constructor(readonly dataset: ReplayDataset) {
    const last = dataset.days - 1;
    for (const { symbol, name, sector } of dataset.universe.stocks) this.names.set(symbol, { name, sector });
    for (const { symbol, name } of dataset.universe.indices) this.names.set(symbol, { name, sector: null });
    for (const symbol of this.names.keys()) {
      this.growth.set(symbol, dataset.closeOf(symbol, last) / dataset.closeOf(symbol, 0));
    }
    for (const { symbol, date, to, from } of HISTORICAL_SPLITS) {
      // A history without the split's day or symbol (a test's small one) spans no such split.
      const historicalDay = dataset.universe.dates.indexOf(date);
      if (historicalDay < 1 || !this.names.has(symbol)) continue;
      this.splitsBySymbol.set(symbol, [
        ...(this.splitsBySymbol.get(symbol) ?? []),
        { historicalDay, to, from },
      ]);
    }
  }

  has(symbol: string): boolean {
    return this.names.has(symbol);
  }

  nameOf(symbol: string): string {
    return this.describe(symbol).name;
  }

  /** The full bar of a trading day (as it stands at that day's close). */
  bar(symbol: string, tradingDay: number): HistoricalBar {
    const { cycle, historicalDay } = cyclePosition(tradingDay, this.dataset.days);
    const bar = this.dataset.bar(symbol, historicalDay);
    const scale = this.scale(symbol, cycle);
    return {
      open: bar.open * scale,
      high: bar.high * scale,
      low: bar.low * scale,
      close: bar.close * scale,
      volume: bar.volume,
    };
  }

  closeOn(symbol: string, tradingDay: number): number {
    const { cycle, historicalDay } = cyclePosition(tradingDay, this.dataset.days);
    return this.dataset.closeOf(symbol, historicalDay) * this.scale(symbol, cycle);
  }

  quote(symbol: string, instant: Date): ProviderQuote {
    const { tradingDay, progress } = sessionAt(instant);
    const bar = intradayBar(this.bar(symbol, tradingDay), progress);
    return {
      symbol,
      name: this.nameOf(symbol),
      price: bar.close,
      previousClose: this.closeOn(symbol, previousTradingDay(tradingDay)),
      open: bar.open,
      high: bar.high,
      low: bar.low,
      volume: bar.volume,
      asOf: instant.toISOString(),
    };
  }

  /** Daily bars dated from..to (inclusive), up to the session running at `instant`, oldest first. */
  dailyBars(symbol: string, from: string, to: string, instant: Date): DailyBar[] {
    const session = sessionAt(instant);
    const first = tradingDayOnOrAfter(from);
    const last = Math.min(tradingDayOnOrBefore(to), session.tradingDay);
    if (last < first) return [];
    const running = session.progress < 1 && last === session.tradingDay;
    const lastClosed = running ? previousTradingDay(last) : last;
    const bars =
      lastClosed < first
        ? []
        : this.closedBars.list(symbol, first, lastClosed, (day) => this.dailyBar(day, this.bar(symbol, day)));
    if (running) bars.push(this.dailyBar(last, intradayBar(this.bar(symbol, last), session.progress)));
    return bars;
  }

  /** Every field written in one literal: with a spread, V8 put five of the six fields in a separate property array. */
  private dailyBar(tradingDay: number, bar: HistoricalBar): DailyBar {
    return {
      date: dateOfTradingDay(tradingDay),
      open: bar.open,
      high: bar.high,
      low: bar.low,
      close: bar.close,
      volume: bar.volume,
    };
  }

  /**
   * The history's splits of `symbol` on the dates the replay puts them, from..to (inclusive),
   * oldest first: every cycle repeats them. A split whose trading day falls on a holiday takes
   * effect at the next session, which carries that day's move.
   */
  splits(symbol: string, from: string, to: string): StockSplit[] {
    const first = tradingDayOnOrAfter(from);
    const last = tradingDayOnOrBefore(to);
    const cycleLength = this.dataset.days - 1;
    const splits: StockSplit[] = [];
    for (const split of this.splitsBySymbol.get(symbol) ?? []) {
      const offset = split.historicalDay - 1;
      const firstCycle = Math.floor((first - offset) / cycleLength) - 1;
      for (let tradingDay = offset + firstCycle * cycleLength; ; tradingDay += cycleLength) {
        const session = isHoliday(tradingDay) ? nextTradingDay(tradingDay) : tradingDay;
        if (session > last) break;
        if (session >= first)
          splits.push({ date: dateOfTradingDay(session), to: split.to, from: split.from });
      }
    }
    return splits.sort((a, b) => a.date.localeCompare(b.date));
  }

  /** How every stock and index closed on the trading day of `date` (the last weekday on or before it). */
  sessionMoves(date: string): SessionMoves {
    const tradingDay = tradingDayOnOrBefore(date);
    const move = (symbol: string): SessionMove => this.sessionMove(symbol, tradingDay);
    return {
      date: dateOfTradingDay(tradingDay),
      stocks: this.dataset.universe.stocks.map(({ symbol }) => move(symbol)),
      indices: this.dataset.universe.indices.map(({ symbol }) => move(symbol)),
    };
  }

  private sessionMove(symbol: string, tradingDay: number): SessionMove {
    const bar = this.bar(symbol, tradingDay);
    const previousClose = this.closeOn(symbol, previousTradingDay(tradingDay));
    let high52Week = bar.high;
    let low52Week = bar.low;
    for (let day = tradingDay - YEAR_OF_TRADING_DAYS + 1; day < tradingDay; day += 1) {
      const past = this.bar(symbol, day);
      high52Week = Math.max(high52Week, past.high);
      low52Week = Math.min(low52Week, past.low);
    }
    let volumeSum = 0;
    for (let day = tradingDay - AVERAGE_VOLUME_DAYS; day < tradingDay; day += 1) {
      volumeSum += this.dataset.volumeOf(symbol, cyclePosition(day, this.dataset.days).historicalDay);
    }
    return {
      symbol,
      ...this.describe(symbol),
      ...bar,
      previousClose,
      change: bar.close - previousClose,
      changePercent: ((bar.close - previousClose) / previousClose) * 100,
      averageVolume: volumeSum / AVERAGE_VOLUME_DAYS,
      high52Week,
      low52Week,
    };
  }

  private describe(symbol: string): { name: string; sector: string | null } {
    const entry = this.names.get(symbol);
    if (!entry) throw new Error(`${symbol} is not in the replay universe`);
    return entry;
  }

  private scale(symbol: string, cycle: number): number {
    return cycle === 0 ? 1 : this.growth.get(symbol)! ** cycle;
  }
}
