import { exchangeDay } from './analytics/time-weighted-returns';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The exchange date an `executed_at` belongs to: the date itself when only a date was given (it is
 * stored as midnight UTC of that date), else the New York date of the instant. Stored beside the
 * instant, because once stored a date and a time of 00:00:00Z can no longer be told apart.
 */
export function tradeDateOf(executedAt: string, instant: Date): string {
  return DATE_ONLY.test(executedAt) ? executedAt : exchangeDay(instant);
}
