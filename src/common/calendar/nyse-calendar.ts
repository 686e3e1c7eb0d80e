// The New York Stock Exchange's trading calendar as a rule table (NYSE Rule 7.2 and its published
// holiday schedules), so that it needs no yearly data file:
//
//   New Year's Day      Jan 1; on a Sunday the Monday after. On a Saturday it is not moved (the
//                       exchange stays open on Friday Dec 31).
//   Martin Luther King  third Monday of January (from 1998)
//   Washington's Bday   third Monday of February
//   Good Friday         the Friday before Easter Sunday (Gregorian computus)
//   Memorial Day        last Monday of May
//   Juneteenth          Jun 19 (from 2022), observed like Independence Day
//   Independence Day    Jul 4; on a Saturday the Friday before, on a Sunday the Monday after
//   Labor Day           first Monday of September
//   Thanksgiving        fourth Thursday of November
//   Christmas           Dec 25, observed like Independence Day
//
// Early closes (13:00 New York): Jul 3 when it is a weekday session and Jul 4 falls Tuesday to
// Friday; the Friday after Thanksgiving; Dec 24 when it is a weekday session. One-off closures
// (national days of mourning, weather) are listed in UNSCHEDULED_CLOSURES.

const MS_PER_DAY = 86_400_000;

export const REGULAR_CLOSE_MINUTE = 16 * 60;
export const EARLY_CLOSE_MINUTE = 13 * 60;

/** Closures the rules cannot predict, since 2001. */
const UNSCHEDULED_CLOSURES: Readonly<Record<string, string>> = {
  '2001-09-11': 'September 11 attacks',
  '2001-09-12': 'September 11 attacks',
  '2001-09-13': 'September 11 attacks',
  '2001-09-14': 'September 11 attacks',
  '2004-06-11': 'National Day of Mourning (Ronald Reagan)',
  '2007-01-02': 'National Day of Mourning (Gerald Ford)',
  '2012-10-29': 'Hurricane Sandy',
  '2012-10-30': 'Hurricane Sandy',
  '2018-12-05': 'National Day of Mourning (George H. W. Bush)',
  '2025-01-09': 'National Day of Mourning (Jimmy Carter)',
};

const holidaysByYear = new Map<number, ReadonlyMap<string, string>>();

/** The holiday that closes the exchange on `date` (YYYY-MM-DD), or null. Weekends are not holidays. */
export function nyseHoliday(date: string): string | null {
  return holidaysOf(Number(date.slice(0, 4))).get(date) ?? UNSCHEDULED_CLOSURES[date] ?? null;
}

export function isNyseTradingDay(date: string): boolean {
  const weekday = weekdayOf(date);
  return weekday !== 0 && weekday !== 6 && nyseHoliday(date) === null;
}

/** Minute of the New York day at which the session of `date` closes; null when there is none. */
export function nyseCloseMinute(date: string): number | null {
  if (!isNyseTradingDay(date)) return null;
  const [year, month, day] = [Number(date.slice(0, 4)), date.slice(5, 7), date.slice(8, 10)];
  const monthDay = `${month}-${day}`;
  if (monthDay === '07-03') {
    const independenceWeekday = weekdayOf(`${year}-07-04`);
    if (independenceWeekday >= 2 && independenceWeekday <= 5) return EARLY_CLOSE_MINUTE;
  }
  if (monthDay === '12-24') return EARLY_CLOSE_MINUTE;
  if (date === addDays(nthWeekday(year, 11, 4, 4), 1)) return EARLY_CLOSE_MINUTE;
  return REGULAR_CLOSE_MINUTE;
}

/**
 * The calendar date `tradingDays` NYSE sessions before `date` (not counting `date` itself): the
 * earliest `from` for a history request that must hold that many sessions before `date`.
 */
export function nyseSessionsBefore(date: string, tradingDays: number): string {
  const key = `${date}/${tradingDays}`;
  let start = sessionsBeforeByKey.get(key);
  if (start === undefined) {
    // Pure and asked with the same few arguments on every risk request: walking 1,260 sessions
    // day by day cost a third of that route's CPU.
    if (sessionsBeforeByKey.size >= SESSIONS_BEFORE_CACHE_SIZE) sessionsBeforeByKey.clear();
    start = walkSessionsBefore(date, tradingDays);
    sessionsBeforeByKey.set(key, start);
  }
  return start;
}

const SESSIONS_BEFORE_CACHE_SIZE = 1_024;
const sessionsBeforeByKey = new Map<string, string>();

function walkSessionsBefore(date: string, tradingDays: number): string {
  let cursor = date;
  let counted = 0;
  while (counted < tradingDays) {
    cursor = addDays(cursor, -1);
    if (isNyseTradingDay(cursor)) counted += 1;
  }
  return cursor;
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * MS_PER_DAY).toISOString().slice(0, 10);
}

function holidaysOf(year: number): ReadonlyMap<string, string> {
  let holidays = holidaysByYear.get(year);
  if (!holidays) {
    holidays = computeHolidays(year);
    holidaysByYear.set(year, holidays);
  }
  return holidays;
}

function computeHolidays(year: number): Map<string, string> {
  const holidays = new Map<string, string>();
  const newYear = `${year}-01-01`;
  if (weekdayOf(newYear) === 0) holidays.set(`${year}-01-02`, "New Year's Day");
  else if (weekdayOf(newYear) !== 6) holidays.set(newYear, "New Year's Day");
  if (year >= 1998) holidays.set(nthWeekday(year, 1, 1, 3), 'Martin Luther King Jr. Day');
  holidays.set(nthWeekday(year, 2, 1, 3), "Washington's Birthday");
  holidays.set(addDays(easterSunday(year), -2), 'Good Friday');
  holidays.set(lastWeekday(year, 5, 1), 'Memorial Day');
  if (year >= 2022) holidays.set(observed(`${year}-06-19`), 'Juneteenth');
  holidays.set(observed(`${year}-07-04`), 'Independence Day');
  holidays.set(nthWeekday(year, 9, 1, 1), 'Labor Day');
  holidays.set(nthWeekday(year, 11, 4, 4), 'Thanksgiving Day');
  holidays.set(observed(`${year}-12-25`), 'Christmas Day');
  return holidays;
}

/** A fixed-date holiday on a Saturday is observed on the Friday before, on a Sunday the Monday after. */
function observed(date: string): string {
  const weekday = weekdayOf(date);
  if (weekday === 6) return addDays(date, -1);
  if (weekday === 0) return addDays(date, 1);
  return date;
}

/** Sunday = 0 … Saturday = 6. */
function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** The nth (1-based) `weekday` of a month (1-based). */
function nthWeekday(year: number, month: number, weekday: number, nth: number): string {
  const first = `${year}-${String(month).padStart(2, '0')}-01`;
  const offset = (weekday - weekdayOf(first) + 7) % 7;
  return addDays(first, offset + 7 * (nth - 1));
}

function lastWeekday(year: number, month: number, weekday: number): string {
  const last = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return addDays(last, -((weekdayOf(last) - weekday + 7) % 7));
}

/** Anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
