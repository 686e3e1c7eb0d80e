import { isNyseTradingDay } from '../../common/calendar/nyse-calendar';
import { newYorkTime } from '../../common/time/new-york-time';

const OPEN_MS_OF_DAY = (9 * 60 + 30) * 60_000;
const MS_PER_DAY = 86_400_000;
/** Longer than any run of days the exchange is closed. */
const DAYS_SEARCHED = 10;

/** The instant of `date`'s 09:30 in New York (the offset is the one New York has at that hour). */
export function newYorkOpenOf(date: string): Date {
  const guess = Date.parse(`${date}T00:00:00Z`) + OPEN_MS_OF_DAY + 5 * 3_600_000;
  const seen = newYorkTime(new Date(guess)).msOfDay;
  return new Date(guess - (seen - OPEN_MS_OF_DAY));
}

/** The latest New York session open at or before `now`, or null if none within DAYS_SEARCHED. */
export function lastSessionOpen(now: Date): Date | null {
  const today = newYorkTime(now).date;
  for (let back = 0; back < DAYS_SEARCHED; back++) {
    const date = new Date(Date.parse(`${today}T00:00:00Z`) - back * MS_PER_DAY).toISOString().slice(0, 10);
    if (!isNyseTradingDay(date)) continue;
    const open = newYorkOpenOf(date);
    if (open.getTime() <= now.getTime()) return open;
  }
  return null;
}
