import { DailyBar, ProviderQuote } from '../../integrations/vendors';
import {
  cyclePosition,
  dateOfTradingDay,
  intradayBar,
  sessionAt,
  nextTradingDay,
  previousTradingDay,
  tradingDayOnOrAfter,
  tradingDayOnOrBefore,
} from './replay-calendar';
import { HistoricalBar, ReplayDataset } from './replay-dataset';

/** Trading days in the 52-week window, and in the average the day's volume is compared with. */
const YEAR_OF_TRADING_DAYS = 260;
const AVERAGE_VOLUME_DAYS = 20;

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

  constructor(readonly dataset: ReplayDataset) {
    const last = dataset.days - 1;
    for (const { symbol, name, sector } of dataset.universe.stocks) this.names.set(symbol, { name, sector });
    for (const { symbol, name } of dataset.universe.indices) this.names.set(symbol, { name, sector: null });
    for (const symbol of this.names.keys()) {
      this.growth.set(symbol, dataset.closeOf(symbol, last) / dataset.closeOf(symbol, 0));
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
    const bars: DailyBar[] = [];
    for (let day = first; day <= last; day = nextTradingDay(day)) {
      const full = this.bar(symbol, day);
      const bar = day === session.tradingDay ? intradayBar(full, session.progress) : full;
      bars.push({ date: dateOfTradingDay(day), ...bar });
    }
    return bars;
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
