import {
  alignDailyReturns,
  constantWeightPortfolioReturns,
  simpleReturns,
  wealthIndex,
} from './daily-returns';

const closes = (pairs: [string, number][]) => pairs.map(([date, close]) => ({ date, close }));

describe('simpleReturns', () => {
  it('divides each price by the previous one', () => {
    // 110 / 100 - 1 = 0.1; 99 / 110 - 1 = -0.1
    const sut = simpleReturns([100, 110, 99]);
    expect(sut[0]).toBeCloseTo(0.1, 12);
    expect(sut[1]).toBeCloseTo(-0.1, 12);
  });

  it('gives no return for fewer than two prices', () => {
    expect(simpleReturns([100])).toEqual([]);
    expect(simpleReturns([])).toEqual([]);
  });
});

describe('alignDailyReturns', () => {
  it('leaves out closes after `through`, such as a session still running', () => {
    const series = closes([
      ['2024-01-02', 100],
      ['2024-01-03', 110],
      ['2024-01-04', 99],
      ['2024-01-05', 200],
    ]);
    const sut = alignDailyReturns(new Map([['AAA', series]]), 2, '2024-01-04')!;
    expect(sut.startDate).toBe('2024-01-02');
    expect(sut.dates).toEqual(['2024-01-03', '2024-01-04']);
    expect(sut.returnsBySymbol.get('AAA')).toEqual([expect.closeTo(0.1, 12), expect.closeTo(-0.1, 12)]);
    expect(alignDailyReturns(new Map([['AAA', series]]), 2, '2024-01-01')).toBeNull();
  });

  const aaa = closes([
    ['2017-01-02', 10],
    ['2017-01-03', 11],
    ['2017-01-04', 12],
    ['2017-01-05', 12.6],
  ]);

  it('keeps the last lookback returns', () => {
    const sut = alignDailyReturns(new Map([['AAA', aaa]]), 2)!;
    expect(sut.startDate).toBe('2017-01-03');
    expect(sut.dates).toEqual(['2017-01-04', '2017-01-05']);
    // 12 / 11 - 1, 12.6 / 12 - 1 = 0.05
    expect(sut.returnsBySymbol.get('AAA')![0]).toBeCloseTo(1 / 11, 12);
    expect(sut.returnsBySymbol.get('AAA')![1]).toBeCloseTo(0.05, 12);
  });

  it('starts the window at the latest first close and carries closes over gaps', () => {
    // BBB starts on the 3rd and misses the 4th: its 4th is the 3rd's 20, a zero return
    const bbb = closes([
      ['2017-01-03', 20],
      ['2017-01-05', 22],
    ]);
    const sut = alignDailyReturns(
      new Map([
        ['AAA', aaa],
        ['BBB', bbb],
      ]),
      252,
    )!;
    expect(sut.startDate).toBe('2017-01-03');
    expect(sut.dates).toEqual(['2017-01-04', '2017-01-05']);
    expect(sut.returnsBySymbol.get('BBB')![0]).toBe(0);
    expect(sut.returnsBySymbol.get('BBB')![1]).toBeCloseTo(0.1, 12);
    expect(sut.returnsBySymbol.get('AAA')).toHaveLength(2);
  });

  it('returns null when fewer than two dates overlap', () => {
    expect(alignDailyReturns(new Map([['AAA', aaa.slice(0, 1)]]), 10)).toBeNull();
    expect(
      alignDailyReturns(
        new Map([
          ['AAA', aaa],
          ['LATE', closes([['2017-01-05', 5]])],
        ]),
        10,
      ),
    ).toBeNull();
    expect(alignDailyReturns(new Map(), 10)).toBeNull();
  });
});

describe('constantWeightPortfolioReturns', () => {
  it('weights each day’s returns by the constant weights', () => {
    // day 1: 0.6 × 0.10 + 0.4 × -0.05 = 0.04; day 2: 0.6 × 0 + 0.4 × 0.02 = 0.008
    const sut = constantWeightPortfolioReturns(
      new Map([
        ['A', [0.1, 0]],
        ['B', [-0.05, 0.02]],
      ]),
      new Map([
        ['A', 0.6],
        ['B', 0.4],
      ]),
    );
    expect(sut[0]).toBeCloseTo(0.04, 12);
    expect(sut[1]).toBeCloseTo(0.008, 12);
  });

  it('refuses a weight without returns', () => {
    expect(() => constantWeightPortfolioReturns(new Map(), new Map([['A', 1]]))).toThrow(RangeError);
  });
});

describe('wealthIndex', () => {
  it('compounds returns from one unit at the start date', () => {
    // 1 × 1.1 = 1.1; 1.1 × 0.9 = 0.99
    const sut = wealthIndex('d0', ['d1', 'd2'], [0.1, -0.1]);
    expect(sut.map((point) => point.date)).toEqual(['d0', 'd1', 'd2']);
    expect(sut[0].value).toBe(1);
    expect(sut[2].value).toBeCloseTo(0.99, 12);
  });
});
