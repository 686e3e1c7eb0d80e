// Wall-clock time on the US exchanges' calendar (America/New_York), without a timezone library.

const MS_PER_DAY = 86_400_000;

const newYorkParts = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The calendar date (YYYY-MM-DD) and milliseconds since midnight in New York. */
export function newYorkTime(instant: Date): { date: string; msOfDay: number } {
  const local = instant.getTime() + newYorkOffsetMs(instant.getTime());
  const msOfDay = ((local % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY;
  return { date: new Date(local - msOfDay).toISOString().slice(0, 10), msOfDay };
}

const MS_PER_HOUR = 3_600_000;
/** Offsets of the hours seen, cleared when full: ledgers date their trades over many hours. */
const KEPT_OFFSETS = 100_000;
const offsetsByHour = new Map<number, number>();
let offsetHour = Number.NaN;
let offsetMs = 0;

/**
 * New York's offset from UTC at an instant. It changes only on the hour (in UTC too), so it is
 * asked of Intl (slow: this runs for every quote and every trade) once per UTC hour, the last hour
 * answering without a lookup.
 */
function newYorkOffsetMs(time: number): number {
  const hour = Math.floor(time / MS_PER_HOUR);
  if (hour !== offsetHour) {
    let offset = offsetsByHour.get(hour);
    if (offset === undefined) {
      const start = hour * MS_PER_HOUR;
      const parts = Object.fromEntries(
        newYorkParts.formatToParts(new Date(start)).map((part) => [part.type, Number(part.value)]),
      );
      offset =
        Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - start;
      if (offsetsByHour.size >= KEPT_OFFSETS) offsetsByHour.clear();
      offsetsByHour.set(hour, offset);
    }
    offsetMs = offset;
    offsetHour = hour;
  }
  return offsetMs;
}
