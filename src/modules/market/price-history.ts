import { DailyBar } from '../../integrations/vendors';

export const HISTORY_INTERVALS = ['1d', '1wk', '1mo'] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];

/** Monday of the ISO week of a YYYY-MM-DD date. */
function weekStart(date: string): string {
  const time = Date.parse(`${date}T00:00:00Z`);
  const mondayOffset = (new Date(time).getUTCDay() + 6) % 7;
  return new Date(time - mondayOffset * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Daily bars rolled up into weekly or monthly ones: dated by their first trading day, opening at
 * the first open, closing at the last close, with the period's extremes and total volume.
 */
export function aggregateBars(bars: readonly DailyBar[], interval: HistoryInterval): DailyBar[] {
  if (interval === '1d') return [...bars];
  const periodOf = interval === '1wk' ? weekStart : (date: string) => date.slice(0, 7);
  const result: DailyBar[] = [];
  let period: string | null = null;
  for (const bar of bars) {
    const current = result[result.length - 1];
    const barPeriod = periodOf(bar.date);
    if (barPeriod !== period || !current) {
      result.push({ ...bar });
      period = barPeriod;
      continue;
    }
    current.high = Math.max(current.high, bar.high);
    current.low = Math.min(current.low, bar.low);
    current.close = bar.close;
    current.volume += bar.volume;
  }
  return result;
}

/** The same calendar day one year earlier (29 February falls back to the 28th). */
export function oneYearBefore(date: string): string {
  return yearsBefore(date, 1);
}

/** The same day `years` years earlier (28 February for 29 February). */
export function yearsBefore(date: string, years: number): string {
  const [year, month, day] = date.split('-').map(Number);
  const target = new Date(Date.UTC(year - years, month - 1, day));
  if (target.getUTCMonth() !== month - 1) target.setUTCDate(0);
  return target.toISOString().slice(0, 10);
}
