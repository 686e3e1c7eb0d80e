import { nextLocalTime } from './zoned-time';

export type AlertFrequency = 'real-time' | 'hourly' | 'daily' | 'weekly';

/** Wall-clock minutes of each daily_summary_time in the user's zone; "convenient" follows New York's close. */
export const SUMMARY_MINUTES: Record<string, number> = {
  morning: 7 * 60 + 30,
  lunch: 12 * 60,
  evening: 18 * 60,
  night: 21 * 60,
};
/** 30 minutes after the regular New York close. */
export const CONVENIENT_NEW_YORK_MINUTE = 16 * 60 + 30;
const MONDAY = 1;
const HOUR_MS = 3_600_000;

/** When a digest at `frequency` that a notification created at `now` joins goes out. */
export function deliveryDueAt(
  now: Date,
  frequency: AlertFrequency,
  summaryTime: string,
  timeZone: string,
): Date {
  if (frequency === 'real-time') return now;
  if (frequency === 'hourly') return new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);
  const [minute, zone] =
    summaryTime in SUMMARY_MINUTES
      ? [SUMMARY_MINUTES[summaryTime], timeZone]
      : [CONVENIENT_NEW_YORK_MINUTE, 'America/New_York'];
  return nextLocalTime(now, minute, zone, frequency === 'weekly' ? MONDAY : undefined);
}
