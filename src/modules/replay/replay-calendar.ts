// Pure date arithmetic that puts the historical window on today's calendar. Every weekday has a
// trading-day number, and every weekday but an NYSE holiday has a session, closing at 16:00 New
// York time or at 13:00 on the NYSE's early-close days. A holiday's number is skipped rather than
// given to the next day, so that no other date's prices move: its bar is never shown, and the next
// session's change against the last close before the holiday spans both historical days. Trading
// day 0 is REPLAY_EPOCH (a Monday) and days count weekdays from it, in both directions. Trading day k replays historical day 1 + (k mod (N - 1)), where N is the number of
// historical days: the returns of days 1..N-1 repeat, so the cycle never needs the return into
// day 0, and the levels of cycle q are the historical levels times (last close / first close)^q.

import { newYorkTime } from '../../common/time/new-york-time';
import { EARLY_CLOSE_MINUTE, nyseCloseMinute, nyseHoliday } from '../../common/calendar/nyse-calendar';
import { HistoricalBar } from './replay-dataset';

export const REPLAY_EPOCH = '2024-01-01';
const MS_PER_DAY = 86_400_000;
const SESSION_OPEN_MINUTE = 9 * 60 + 30;
const SESSION_CLOSE_MINUTE = 16 * 60;
const EPOCH_DAY = Date.parse(`${REPLAY_EPOCH}T00:00:00Z`) / MS_PER_DAY;

/** Where the instant falls: the latest session that has opened, and how far it has run (0..1). */
export interface SessionPosition {
  tradingDay: number;
  /** 1 once the session has closed. */
  progress: number;
}

/** Place of a trading day in the historical cycle. */
export interface CyclePosition {
  cycle: number;
  historicalDay: number;
}

function daysSinceEpoch(date: string): number {
  const time = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(time)) throw new Error(`invalid date ${date}`);
  return time / MS_PER_DAY - EPOCH_DAY;
}

/** Monday = 0 ... Sunday = 6. */
function weekdayOf(days: number): number {
  return ((days % 7) + 7) % 7;
}

export function isTradingDate(date: string): boolean {
  return weekdayOf(daysSinceEpoch(date)) < 5 && nyseHoliday(date) === null;
}

/** Whether the trading-day number falls on an NYSE holiday (and so has no session). */
export function isHoliday(tradingDay: number): boolean {
  return nyseHoliday(dateOfTradingDay(tradingDay)) !== null;
}

/** The trading day of `date`, or of the last session before it when it is a weekend or holiday. */
export function tradingDayOnOrBefore(date: string): number {
  const days = daysSinceEpoch(date);
  let tradingDay = 5 * Math.floor(days / 7) + Math.min(weekdayOf(days), 4);
  while (isHoliday(tradingDay)) tradingDay -= 1;
  return tradingDay;
}

/** The first trading day with a session on or after `date`. */
export function tradingDayOnOrAfter(date: string): number {
  const days = daysSinceEpoch(date);
  const weekday = weekdayOf(days);
  let tradingDay = 5 * Math.floor(days / 7) + (weekday < 5 ? weekday : 5);
  while (isHoliday(tradingDay)) tradingDay += 1;
  return tradingDay;
}

/** The session before a trading day's. */
export function previousTradingDay(tradingDay: number): number {
  let previous = tradingDay - 1;
  while (isHoliday(previous)) previous -= 1;
  return previous;
}

/** The session after a trading day's. */
export function nextTradingDay(tradingDay: number): number {
  let next = tradingDay + 1;
  while (isHoliday(next)) next += 1;
  return next;
}

export function dateOfTradingDay(tradingDay: number): string {
  return TRADING_DATES[tradingDay - FIRST_TABULATED_DAY] ?? computedDateOfTradingDay(tradingDay);
}

function computedDateOfTradingDay(tradingDay: number): string {
  const weeks = Math.floor(tradingDay / 5);
  const days = EPOCH_DAY + 7 * weeks + (tradingDay - 5 * weeks);
  return new Date(days * MS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * The dates of the trading days from 30 years before the epoch to 10 years after it, made once
 * (≈ 10,400 strings, 0.3 MB): every cached daily bar shares its day's string instead of holding a
 * copy of its own (32 bytes, and a Date and an ISO string to make it).
 */
const FIRST_TABULATED_DAY = -30 * 261;
const TRADING_DATES: readonly string[] = Array.from({ length: 40 * 261 }, (_, index) =>
  computedDateOfTradingDay(FIRST_TABULATED_DAY + index),
);

export function sessionAt(instant: Date): SessionPosition {
  const { date, msOfDay } = newYorkTime(instant);
  const opened = msOfDay >= SESSION_OPEN_MINUTE * 60_000;
  if (!isTradingDate(date)) return { tradingDay: tradingDayOnOrBefore(date), progress: 1 };
  if (!opened) return { tradingDay: previousTradingDay(tradingDayOnOrBefore(date)), progress: 1 };
  const sessionMs = (sessionCloseMinute(date) - SESSION_OPEN_MINUTE) * 60_000;
  const progress = Math.min(1, (msOfDay - SESSION_OPEN_MINUTE * 60_000) / sessionMs);
  return { tradingDay: tradingDayOnOrBefore(date), progress };
}

let closeMinuteDate = '';
let closeMinute = SESSION_CLOSE_MINUTE;

/** 16:00, or 13:00 on an NYSE early close; the last date's answer is kept (this runs for every quote). */
function sessionCloseMinute(date: string): number {
  if (date !== closeMinuteDate) {
    closeMinute = nyseCloseMinute(date) === EARLY_CLOSE_MINUTE ? EARLY_CLOSE_MINUTE : SESSION_CLOSE_MINUTE;
    closeMinuteDate = date;
  }
  return closeMinute;
}

export function cyclePosition(tradingDay: number, historicalDays: number): CyclePosition {
  const length = historicalDays - 1;
  const cycle = Math.floor(tradingDay / length);
  return { cycle, historicalDay: 1 + tradingDay - cycle * length };
}

/**
 * The session's bar so far at `progress` (0..1): the price runs at constant speed from the open to
 * one extreme (the low on an up day, the high on a down day), to the other, then to the close, so
 * the running high and low reach the day's real ones by the close. Volume accrues evenly.
 */
export function intradayBar(bar: HistoricalBar, progress: number): HistoricalBar {
  if (progress >= 1) return bar;
  const [first, second] = bar.close >= bar.open ? [bar.low, bar.high] : [bar.high, bar.low];
  const stops = [bar.open, first, second, bar.close];
  const legs = [Math.abs(first - bar.open), Math.abs(second - first), Math.abs(bar.close - second)];
  const volume = Math.round(bar.volume * Math.max(0, progress));
  let remaining = Math.max(0, progress) * (legs[0] + legs[1] + legs[2]);
  let high = bar.open;
  let low = bar.open;
  for (let leg = 0; leg < 3; leg += 1) {
    if (remaining <= legs[leg]) {
      const price = stops[leg] + Math.sign(stops[leg + 1] - stops[leg]) * remaining;
      return { open: bar.open, high: Math.max(high, price), low: Math.min(low, price), close: price, volume };
    }
    remaining -= legs[leg];
    high = Math.max(high, stops[leg + 1]);
    low = Math.min(low, stops[leg + 1]);
  }
  return { ...bar, volume };
}
