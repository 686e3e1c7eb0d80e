import { LedgerEntry } from './ledger-replay';
import { dailyValuations } from './time-weighted-returns';
import { downsampleEvenly, valueHistory } from './value-history';

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

describe('valueHistory', () => {
  // docs/portfolio.md's example: 10 A at 100 on Jan 2 (close 100), 120 on Jan 31, 10 more at 120 on
  // Feb 1, 110 on Mar 2
  const valuations = dailyValuations(
    [buy(1, 10, 100, '2017-01-02'), buy(2, 10, 120, '2017-02-01')],
    new Map([
      [
        'A',
        [
          { date: '2017-01-02', close: 100 },
          { date: '2017-01-31', close: 120 },
          { date: '2017-03-02', close: 110 },
        ],
      ],
    ]),
    '2017-03-02',
  );
  const benchmark = [
    { date: '2016-12-30', close: 200 },
    { date: '2017-01-31', close: 210 },
    { date: '2017-03-01', close: 220 },
  ];

  it('charts value, net invested capital, cumulative TWR and the benchmark from the first trade', () => {
    expect(valueHistory(valuations, benchmark, 'ALL', '2017-03-02')).toEqual([
      // the benchmark's base is its last close on or before Jan 1, the day before the first trade
      { date: '2017-01-02', marketValue: 1000, netInvested: 1000, cumulativeReturn: 0, benchmarkReturn: 0 },
      {
        date: '2017-01-31',
        marketValue: 1200,
        netInvested: 1000,
        cumulativeReturn: expect.closeTo(0.2, 12),
        benchmarkReturn: expect.closeTo(0.05, 12),
      },
      {
        date: '2017-02-01',
        marketValue: 2400,
        netInvested: 2200,
        cumulativeReturn: expect.closeTo(0.2, 12),
        benchmarkReturn: expect.closeTo(0.05, 12),
      },
      {
        date: '2017-03-02',
        marketValue: 2200,
        netInvested: 2200,
        cumulativeReturn: expect.closeTo(0.1, 12),
        benchmarkReturn: expect.closeTo(0.1, 12),
      },
    ]);
    // a 5Y chart of a younger ledger is the same series
    expect(valueHistory(valuations, benchmark, '5Y', '2017-03-02')).toEqual(
      valueHistory(valuations, benchmark, 'ALL', '2017-03-02'),
    );
  });

  it('measures a period from its start, and leaves the benchmark null without a base close', () => {
    // 1M from Feb 2: only Mar 2, −8⅓%; the benchmark from 210 (Jan 31) to 220
    expect(valueHistory(valuations, benchmark, '1M', '2017-03-02')).toEqual([
      {
        date: '2017-03-02',
        marketValue: 2200,
        netInvested: 2200,
        cumulativeReturn: expect.closeTo(-1 / 12, 12),
        benchmarkReturn: expect.closeTo(220 / 210 - 1, 12),
      },
    ]);
    const late = valueHistory(valuations, [{ date: '2017-02-15', close: 1 }], 'ALL', '2017-03-02');
    expect(late.map((point) => point.benchmarkReturn)).toEqual([null, null, null, null]);
    expect(valueHistory([], benchmark, 'ALL', '2017-03-02')).toEqual([]);
  });
});

describe('downsampleEvenly', () => {
  it('keeps at most max items, evenly spaced, with the first and the last', () => {
    const items = Array.from({ length: 1000 }, (_, index) => index);
    const sut = downsampleEvenly(items, 400);
    expect(sut).toHaveLength(400);
    expect(sut[0]).toBe(0);
    expect(sut[399]).toBe(999);
    const gaps = new Set(sut.slice(1).map((item, index) => item - sut[index]));
    expect([...gaps].sort()).toEqual([2, 3]);
    expect(downsampleEvenly([1, 2, 3], 400)).toEqual([1, 2, 3]);
  });
});
