// Money-weighted return (XIRR) of each performance period, from the same daily valuations as the
// time-weighted one.
//
// Seen from the investor, a period starting after day s and ending on the last valuation day T has
// the cash flows −V_s at s (the holdings' value at the close of s, as if bought then), −B_d at the
// start of each of its days d (the day before: buys count as invested from the start of their day,
// as in the time-weighted return), +S_d at its end, and +V_T at T. The XIRR is the rate r at which
// they are worth nothing:
//   Σ CF_i · (1 + r)^(−t_i / 365) = 0,  t_i = days from s
// Reported as the period's rate (1 + r)^((T − s) / 365) − 1, so it reads beside the time-weighted
// return of the same period: equal when no money moved in or out during the period, apart when
// money came in before a rise or a fall (more capital at work weighs that stretch more). It is
// solved for g = ln(1 + period rate) by bisection, which needs no derivative and, NPV being a sum
// of exponentials in g, finds the root the flows' sign change brackets.
import { DailyValuation, PeriodReturns, returnsPerPeriod } from './time-weighted-returns';

const MS_PER_DAY = 86_400_000;
/** ln(1 + period rate) is searched in ±LOG_RATE_LIMIT: rates from −100% (to 1e-20) to e^50. */
const LOG_RATE_LIMIT = 50;
const BISECTION_STEPS = 200;

export interface CashFlow {
  /** Days after the period's start. */
  day: number;
  /** Investor's view: negative money in (a buy, the opening value), positive money out. */
  amount: number;
}

/**
 * The period rate R with Σ amount · (1 + R)^(−day / periodDays) = 0. −1 when no money ever comes
 * back; null when no money goes in. With periodDays 0 (every flow on one day) it is the ratio of
 * money out to money in, less 1.
 */
export function periodInternalRate(flows: readonly CashFlow[], periodDays: number): number | null {
  const paidIn = flows.reduce((sum, flow) => sum + Math.max(0, -flow.amount), 0);
  const paidOut = flows.reduce((sum, flow) => sum + Math.max(0, flow.amount), 0);
  if (paidIn === 0) return null;
  if (paidOut === 0) return -1;
  if (periodDays === 0) return paidOut / paidIn - 1;
  const presentValue = (logRate: number) =>
    flows.reduce((sum, flow) => sum + flow.amount * Math.exp((-logRate * flow.day) / periodDays), 0);
  let low = -LOG_RATE_LIMIT;
  let high = LOG_RATE_LIMIT;
  const lowSign = Math.sign(presentValue(low));
  if (lowSign === Math.sign(presentValue(high))) return null;
  for (let step = 0; step < BISECTION_STEPS && high - low > 1e-15; step += 1) {
    const middle = (low + high) / 2;
    if (Math.sign(presentValue(middle)) === lowSign) low = middle;
    else high = middle;
  }
  return Math.expm1((low + high) / 2);
}

/**
 * Money-weighted return per period, as a fraction of the period; null exactly where the
 * time-weighted return is (a period the ledger does not reach or without capital at work).
 */
export function moneyWeightedPeriodReturns(
  valuations: readonly DailyValuation[],
  asOf: string,
): PeriodReturns {
  return returnsPerPeriod(valuations, asOf, (start) => {
    const flows: CashFlow[] = [];
    let openingValue = 0;
    let atWork = false;
    for (const valuation of valuations) {
      if (valuation.date <= start) {
        openingValue = valuation.value;
        continue;
      }
      atWork ||= valuation.atWork;
      const day = daysBetween(start, valuation.date);
      if (valuation.bought > 0) flows.push({ day: day - 1, amount: -valuation.bought });
      if (valuation.sold > 0) flows.push({ day, amount: valuation.sold });
    }
    if (!atWork) return null;
    const end = valuations[valuations.length - 1];
    const periodDays = daysBetween(start, end.date);
    flows.unshift({ day: 0, amount: -openingValue });
    flows.push({ day: periodDays, amount: end.value });
    return periodInternalRate(flows, periodDays);
  });
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / MS_PER_DAY);
}
