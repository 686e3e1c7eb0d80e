import { LedgerEntry } from './ledger-replay';
import { moneyWeightedPeriodReturns, periodInternalRate } from './money-weighted-returns';
import { dailyValuations, timeWeightedPeriodReturns } from './time-weighted-returns';

const buy = (id: number, quantity: number, price: number, day: string): LedgerEntry => ({
  id,
  symbol: 'A',
  side: 'buy',
  quantity,
  price,
  fees: 0,
  executedAt: new Date(`${day}T15:00:00Z`),
  tradeDate: day,
});

describe('periodInternalRate', () => {
  it('solves the discounted cash flows for the period rate', () => {
    // −100 now, +110 at the end: 10%
    expect(
      periodInternalRate(
        [
          { day: 0, amount: -100 },
          { day: 365, amount: 110 },
        ],
        365,
      ),
    ).toBeCloseTo(0.1, 12);
    // −100, −100 halfway, +231 at the end: with v = (1 + R)^(−1/2), 231v² − 100v − 100 = 0 → v = 10/11, R = 21%
    expect(
      periodInternalRate(
        [
          { day: 0, amount: -100 },
          { day: 30, amount: -100 },
          { day: 60, amount: 231 },
        ],
        60,
      ),
    ).toBeCloseTo(0.21, 12);
  });

  it('is −100% when nothing comes back and null when nothing went in', () => {
    expect(
      periodInternalRate(
        [
          { day: 0, amount: -100 },
          { day: 10, amount: 0 },
        ],
        10,
      ),
    ).toBe(-1);
    expect(periodInternalRate([{ day: 10, amount: 5 }], 10)).toBeNull();
  });
});

describe('moneyWeightedPeriodReturns', () => {
  // The worked example of docs/portfolio.md: 10 A bought at 100 on Jan 2, up to 120 by Jan 31; 10
  // more bought at 120 on Feb 1; down to 110 on Mar 2. The price path earned +20% then −8⅓%: a
  // time-weighted +10%. But the investor gained 200 on 1,000 and then lost 200 on 2,400: money-weighted 0%.
  const ledger = [buy(1, 10, 100, '2017-01-02'), buy(2, 10, 120, '2017-02-01')];
  const closes = new Map([
    [
      'A',
      [
        { date: '2017-01-02', close: 100 },
        { date: '2017-01-31', close: 120 },
        { date: '2017-03-02', close: 110 },
      ],
    ],
  ]);
  const valuations = dailyValuations(ledger, closes, '2017-03-02');

  it('weighs each stretch by the money at work, unlike the time-weighted return', () => {
    // flows from Jan 1: −1,000 at day 0, −1,200 at day 30 (the start of Feb 1), +2,200 at day 60:
    // 2,200v² − 1,200v − 1,000 = 0 → v = 1, 0%
    const sut = moneyWeightedPeriodReturns(valuations, '2017-03-02');
    expect(sut.ALL).toBeCloseTo(0, 12);
    expect(timeWeightedPeriodReturns(valuations, '2017-03-02').ALL).toBeCloseTo(0.1, 12);
  });

  it('equals the time-weighted return of a period in which no money moved, and shares its nulls', () => {
    // 1M from Feb 2: 2,400 at work, worth 2,200 at the end: −8⅓% both ways
    const sut = moneyWeightedPeriodReturns(valuations, '2017-03-02');
    expect(sut['1M']).toBeCloseTo(-1 / 12, 12);
    expect(timeWeightedPeriodReturns(valuations, '2017-03-02')['1M']).toBeCloseTo(-1 / 12, 12);
    expect(sut.YTD).toBeNull();
    expect(sut['1Y']).toBeNull();
    expect(moneyWeightedPeriodReturns([], '2017-03-02').ALL).toBeNull();
  });
});
