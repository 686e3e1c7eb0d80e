import { LedgerEntry, TransactionKind } from './ledger-replay';
import { seededRandom } from '../../../common/random/seeded-random';
import {
  dailyValuations,
  periodStart,
  timeWeightedReturns,
  valueAppended,
  valueLedger,
} from './time-weighted-returns';

let nextId = 1;
function trade(
  symbol: string,
  side: 'buy' | 'sell',
  quantity: number,
  price: number,
  day: string,
  fees = 0,
): LedgerEntry {
  return {
    id: nextId++,
    symbol,
    side,
    quantity,
    price,
    fees,
    executedAt: new Date(`${day}T14:30:00Z`),
    tradeDate: day,
  };
}
const closes = (pairs: [string, number][]) => pairs.map(([date, close]) => ({ date, close }));

// A rises 2% a day: 100 → 102 → 104.04 → 106.1208 → 108.243216
const aCloses = closes([
  ['2017-01-02', 102],
  ['2017-01-03', 104.04],
  ['2017-01-04', 106.1208],
  ['2017-01-05', 108.243216],
]);

describe('dailyValuations', () => {
  it('neutralises buys and sells so that only price moves make returns', () => {
    const ledger = [
      // day 1: buy 10 @ 100, close 102 → V 1020; r = (1020 - 0 - 1000) / (0 + 1000) = 2%
      trade('A', 'buy', 10, 100, '2017-01-02'),
      // day 3: buy 10 more @ 104.04; V 2122.416; r = (2122.416 - 1040.4 - 1040.4) / 2080.8 = 2%
      trade('A', 'buy', 10, 104.04, '2017-01-04'),
      // day 4: sell 10 @ 106.1208 (counted at the end of the day): V 1082.43216
      // r = (1082.43216 - 2122.416 + 1061.208) / 2122.416 = 1%
      trade('A', 'sell', 10, 106.1208, '2017-01-05'),
    ];
    const sut = dailyValuations(ledger, new Map([['A', aCloses]]), '2017-01-05');
    expect(sut.map((valuation) => valuation.date)).toEqual([
      '2017-01-02',
      '2017-01-03',
      '2017-01-04',
      '2017-01-05',
    ]);
    expect(sut.map((valuation) => valuation.value)).toEqual([
      expect.closeTo(1020, 9),
      expect.closeTo(1040.4, 9),
      expect.closeTo(2122.416, 9),
      expect.closeTo(1082.43216, 9),
    ]);
    expect(sut.map((valuation) => valuation.dailyReturn)).toEqual([
      expect.closeTo(0.02, 12),
      expect.closeTo(0.02, 12),
      expect.closeTo(0.02, 12),
      expect.closeTo(0.01, 12),
    ]);
  });

  it('counts fees against performance', () => {
    // buy 10 @ 100 with 10 fees: 1010 invested, worth 1020 at the close → 10 / 1010
    const sut = dailyValuations(
      [trade('A', 'buy', 10, 100, '2017-01-02', 10)],
      new Map([['A', aCloses]]),
      '2017-01-02',
    );
    expect(sut[0].dailyReturn).toBeCloseTo(10 / 1010, 12);
  });

  it('values a symbol at its trade price until a later close exists, and a sold-out book at zero', () => {
    // trade on a Sunday with no close: valued at the trade price, zero return; sold the next day at 110
    const sut = dailyValuations(
      [trade('NEW', 'buy', 1, 100, '2017-01-01'), trade('NEW', 'sell', 1, 110, '2017-01-02')],
      new Map(),
      '2017-01-03',
    );
    expect(sut).toEqual([
      { date: '2017-01-01', value: 100, dailyReturn: 0, atWork: true, bought: 100, sold: 0 },
      // (0 - 100 + 110) / 100
      {
        date: '2017-01-02',
        value: 0,
        dailyReturn: expect.closeTo(0.1, 12),
        atWork: true,
        bought: 0,
        sold: 110,
      },
    ]);
  });

  it('ignores trades after the as-of day', () => {
    expect(dailyValuations([trade('A', 'buy', 1, 100, '2017-02-01')], new Map(), '2017-01-31')).toEqual([]);
  });
});

describe('periodStart', () => {
  it('shifts by calendar months, clamping to the end of shorter months', () => {
    expect(periodStart('1M', '2017-03-31', '2016-01-04')).toBe('2017-02-28');
    expect(periodStart('3M', '2017-05-15', '2016-01-04')).toBe('2017-02-15');
    expect(periodStart('1Y', '2016-02-29', '2015-01-05')).toBe('2015-02-28');
    expect(periodStart('YTD', '2017-05-15', '2016-01-04')).toBe('2016-12-31');
    expect(periodStart('ALL', '2017-05-15', '2016-01-04')).toBe('2016-01-03');
  });
});

describe('timeWeightedReturns', () => {
  // B closes at 10 on the last day of each month from Dec 2015 and ends at 12.1 on 2017-03-31
  const bCloses = closes([
    ['2015-12-31', 10],
    ['2016-12-30', 11],
    ['2017-02-28', 11],
    ['2017-03-31', 12.1],
  ]);

  it('compounds daily returns per period and leaves uncovered periods null', () => {
    const ledger = [trade('B', 'buy', 100, 10, '2016-06-01'), trade('B', 'buy', 100, 11, '2017-02-28')];
    const sut = timeWeightedReturns(ledger, new Map([['B', bCloses]]), '2017-03-31');
    // 1M: from 2017-02-28 (both lots valued at 11) to 12.1 → +10%
    expect(sut['1M']).toBeCloseTo(0.1, 12);
    // 3M: from 2016-12-31: 11 → 11 → 12.1 → +10%
    expect(sut['3M']).toBeCloseTo(0.1, 12);
    expect(sut.YTD).toBeCloseTo(0.1, 12);
    // ALL: bought at 10 → 11 (+10%), then → 12.1 (+10%): 1.1 × 1.1 - 1 = 21%, whatever was added on the way
    expect(sut.ALL).toBeCloseTo(0.21, 12);
    // 1Y starts 2016-03-31, before the first trade on 2016-06-01
    expect(sut['1Y']).toBeNull();
  });

  it('is all null for an empty ledger', () => {
    expect(timeWeightedReturns([], new Map(), '2017-03-31')).toEqual({
      '1M': null,
      '3M': null,
      YTD: null,
      '1Y': null,
      ALL: null,
    });
  });

  it('answers null for a period in which everything had been sold, and chains the days at work', () => {
    const ledger = [trade('B', 'buy', 100, 10, '2016-06-01'), trade('B', 'sell', 100, 11, '2016-12-30')];
    const sut = timeWeightedReturns(ledger, new Map([['B', bCloses]]), '2017-03-31');
    // bought at 10, sold at the 11 close: +10% over the days at work; none in 2017
    expect(sut.ALL).toBeCloseTo(0.1, 12);
    expect(sut['1Y']).toBeNull();
    expect(sut.YTD).toBeNull();
    expect(sut['1M']).toBeNull();
  });

  it('dates trades and periods on the New York calendar, not UTC', () => {
    // 2017-03-31 20:30 New York is 2017-04-01 00:30 UTC: the buy is March's, at March 31's close
    const lateBuy: LedgerEntry = {
      id: nextId++,
      symbol: 'B',
      side: 'buy',
      quantity: 1,
      price: 12.1,
      fees: 0,
      executedAt: new Date('2017-04-01T00:30:00Z'),
      tradeDate: '2017-03-31',
    };
    const valuations = dailyValuations([lateBuy], new Map([['B', bCloses]]), '2017-03-31');
    expect(valuations.map((valuation) => valuation.date)).toEqual(['2017-03-31']);
    // a date-only trade (stored at midnight UTC, 20:00 the evening before in New York) keeps its date
    const dateOnly = { ...lateBuy, executedAt: new Date('2017-02-28'), tradeDate: '2017-02-28' };
    expect(dailyValuations([dateOnly], new Map(), '2017-03-31').map((valuation) => valuation.date)).toEqual([
      '2017-02-28',
    ]);
  });
});

describe('a transaction kind the valuations do not know', () => {
  it('is refused, never taken for a sell', () => {
    const stored: string = 'spinoff';
    const ledger = [
      trade('A', 'buy', 10, 100, '2017-01-02'),
      { ...trade('A', 'sell', 1, 2, '2017-01-03'), side: stored as TransactionKind },
    ];
    expect(() => dailyValuations(ledger, new Map([['A', aCloses]]), '2017-01-05')).toThrow(
      'Unexpected value: spinoff',
    );
  });
});

describe('valueAppended', () => {
  const bCloses = closes([
    ['2017-01-02', 50],
    ['2017-01-03', 49],
    ['2017-01-04', 51],
  ]);
  const closesBySymbol = new Map([
    ['A', aCloses],
    ['B', bCloses],
  ]);
  const earlier = [
    trade('A', 'buy', 10, 100, '2017-01-02', 1),
    trade('B', 'buy', 4, 50, '2017-01-03'),
    trade('A', 'sell', 3, 104, '2017-01-04', 1),
    trade('B', 'buy', 1, 51, '2017-01-05'),
  ];

  it('gives exactly the whole walk’s figures for trades on the last valuation day', () => {
    const appended = [trade('A', 'buy', 2, 108, '2017-01-05', 2), trade('B', 'sell', 5, 52, '2017-01-05')];
    const resumed = valueAppended(
      valueLedger(earlier, closesBySymbol, '2017-01-05'),
      appended,
      closesBySymbol,
      '2017-01-05',
    );
    const whole = valueLedger([...earlier, ...appended], closesBySymbol, '2017-01-05');
    expect(resumed!.days).toEqual(whole.days);
    expect(resumed!.checkpoint).toEqual(whole.checkpoint);
  });

  it('adds the days of trades after the last close, and carries on from a resumed walk', () => {
    const first = [trade('B', 'buy', 2, 53, '2017-01-06')];
    const second = [trade('A', 'sell', 1, 110, '2017-01-06'), trade('A', 'buy', 1, 111, '2017-01-09')];
    const start = valueLedger(earlier, closesBySymbol, '2017-01-09');
    const once = valueAppended(start, first, closesBySymbol, '2017-01-09')!;
    const twice = valueAppended(once, second, closesBySymbol, '2017-01-09')!;
    const whole = valueLedger([...earlier, ...first, ...second], closesBySymbol, '2017-01-09');
    expect(twice.days.map((valuation) => valuation.date)).toEqual([
      '2017-01-02',
      '2017-01-03',
      '2017-01-04',
      '2017-01-05',
      '2017-01-06',
      '2017-01-09',
    ]);
    expect(twice.days).toEqual(whole.days);
  });

  it('matches the whole walk for every split of a random ledger into earlier and appended trades', () => {
    const random = seededRandom(7);
    const days = ['2017-01-02', '2017-01-03', '2017-01-04', '2017-01-05', '2017-01-06'];
    const held = new Map<string, number>();
    const ledger = Array.from({ length: 40 }, (_, index) => {
      const symbol = random() < 0.5 ? 'A' : 'B';
      const quantity = 1 + Math.floor(random() * 5);
      const sell = (held.get(symbol) ?? 0) >= quantity && random() < 0.4;
      held.set(symbol, (held.get(symbol) ?? 0) + (sell ? -quantity : quantity));
      return trade(
        symbol,
        sell ? 'sell' : 'buy',
        quantity,
        40 + random() * 80,
        days[Math.floor((index * days.length) / 40)],
        random() < 0.3 ? 1 : 0,
      );
    });
    for (let split = 1; split < ledger.length; split += 1) {
      const earlierPart = valueLedger(ledger.slice(0, split), closesBySymbol, '2017-01-06');
      const resumed = valueAppended(earlierPart, ledger.slice(split), closesBySymbol, '2017-01-06');
      const lastDay = earlierPart.checkpoint!.date;
      if (ledger[split].tradeDate < lastDay) expect(resumed).toBeNull();
      else expect(resumed!.days).toEqual(valueLedger(ledger, closesBySymbol, '2017-01-06').days);
    }
  });

  it('refuses a back-dated trade and another as-of day', () => {
    const start = valueLedger(earlier, closesBySymbol, '2017-01-05');
    expect(
      valueAppended(start, [trade('A', 'buy', 1, 100, '2017-01-04')], closesBySymbol, '2017-01-05'),
    ).toBeNull();
    expect(
      valueAppended(start, [trade('A', 'buy', 1, 100, '2017-01-05')], closesBySymbol, '2017-01-06'),
    ).toBeNull();
  });
});

describe('a trade older than the price history', () => {
  // Issue 21, defect 5: bought 10 at 25 on 2000-01-03; the symbol's closes start on 2019-01-02.
  const ledger = [trade('A', 'buy', 10, 25, '2000-01-03')];
  const history = new Map([
    [
      'A',
      closes([
        ['2019-01-02', 30],
        ['2019-01-03', 33],
      ]),
    ],
  ]);

  it('values the days before the first close at the trade price, then moves to the closes', () => {
    const valuations = dailyValuations(ledger, history, '2019-01-03');
    expect(valuations.map(({ date, value }) => ({ date, value }))).toEqual([
      { date: '2000-01-03', value: 250 },
      { date: '2019-01-02', value: 300 },
      { date: '2019-01-03', value: 330 },
    ]);
    // the gap from the trade price to the first close is that day's return
    const returns = timeWeightedReturns(ledger, history, '2019-01-03');
    expect(returns.ALL).toBeCloseTo(0.32, 12);
    expect(returns['1M']).toBeCloseTo(0.32, 12);
  });
});
