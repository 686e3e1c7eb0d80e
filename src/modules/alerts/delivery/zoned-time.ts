const MINUTE_MS = 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

export interface LocalTime {
  /** YYYY-MM-DD */
  date: string;
  minuteOfDay: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export function localTime(instant: Date, timeZone: string): LocalTime {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minuteOfDay: Number(parts.hour) * 60 + Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday),
  };
}

/** The instant at which the wall clock of `timeZone` shows `date` at `minuteOfDay`. */
export function zonedInstant(date: string, minuteOfDay: number, timeZone: string): Date {
  const wanted = Date.parse(`${date}T00:00:00Z`) + minuteOfDay * MINUTE_MS;
  let guess = wanted;
  for (let step = 0; step < 3; step++) {
    const seen = localTime(new Date(guess), timeZone);
    const seenAsUtc = Date.parse(`${seen.date}T00:00:00Z`) + seen.minuteOfDay * MINUTE_MS;
    const drift = seenAsUtc - wanted;
    if (drift === 0) break;
    guess -= drift;
  }
  return new Date(guess);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The first instant after `now` at which `timeZone` shows `minuteOfDay` (optionally only on `weekday`). */
export function nextLocalTime(now: Date, minuteOfDay: number, timeZone: string, weekday?: number): Date {
  const today = localTime(now, timeZone).date;
  for (let days = 0; days <= 8; days++) {
    const date = addDays(today, days);
    const candidate = zonedInstant(date, minuteOfDay, timeZone);
    if (candidate.getTime() <= now.getTime()) continue;
    if (weekday !== undefined && localTime(candidate, timeZone).weekday !== weekday) continue;
    return candidate;
  }
  throw new Error(`no ${minuteOfDay} in ${timeZone} within 8 days of ${now.toISOString()}`);
}
