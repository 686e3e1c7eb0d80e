import { LedgerEntry } from './ledger-replay';
import { closesOnLedgerBasis, PriceBasis } from './split-basis';
import { valueLedger } from './time-weighted-returns';

const closes = (pairs: [string, number][]) => pairs.map(([date, close]) => ({ date, close }));
const at = (day: string) => new Date(`${day}T14:30:00Z`);

/** 10 AAPL bought at 645.57 as traded on 2014-06-05; the 7:1 split recorded on 2014-06-09. */
const ledger: LedgerEntry[] = [
  {
    id: 1,
    symbol: 'AAPL',
    side: 'buy',
    quantity: 10,
    price: 645.57,
    fees: 0,
    executedAt: at('2014-06-05'),
    tradeDate: '2014-06-05',
  },
  {
    id: 2,
    symbol: 'AAPL',
    side: 'split',
    quantity: 0,
    price: 0,
    fees: 0,
    splitTo: 7,
    splitFrom: 1,
    executedAt: at('2014-06-09'),
    tradeDate: '2014-06-09',
  },
];
const splitEntry = (symbol: string, to: number, from: number, day: string): LedgerEntry => ({
  id: 99,
  symbol,
  side: 'split',
  quantity: 0,
  price: 0,
  fees: 0,
  splitTo: to,
  splitFrom: from,
  executedAt: at(day),
  tradeDate: day,
});

/** The source's split-adjusted closes around the split. */
const adjusted = closes([
  ['2014-06-05', 92.4799],
  ['2014-06-06', 92.2242],
  ['2014-06-09', 93.7],
  ['2014-06-10', 94.25],
]);
const aaplSplit = { date: '2014-06-09', to: 7, from: 1 };

function valuesOf(series: readonly { date: string; close: number }[]) {
  return valueLedger(ledger, new Map([['AAPL', series]]), '2014-06-10').days.map(
    ({ date, value, dailyReturn }) => ({
      date,
      value,
      dailyReturn,
    }),
  );
}

describe('closesOnLedgerBasis', () => {
  const adjustedBasis: PriceBasis = { adjustedCloses: true, splits: [aaplSplit] };

  it('multiplies adjusted closes before a recorded split the provider knows by its ratio, not later ones', () => {
    const asTraded = closesOnLedgerBasis(adjusted, adjustedBasis, 'AAPL', ledger);
    expect(asTraded.map(({ close }) => close)).toEqual([92.4799 * 7, 92.2242 * 7, 93.7, 94.25]);
  });

  it('matches a split recorded a few days off the provider’s date, with the same ratio', () => {
    const late = [ledger[0], splitEntry('AAPL', 7, 1, '2014-06-12')];
    expect(closesOnLedgerBasis(adjusted, adjustedBasis, 'AAPL', late)[0].close).toBe(92.4799 * 7);
    const tooLate = [ledger[0], splitEntry('AAPL', 7, 1, '2014-06-17')];
    expect(closesOnLedgerBasis(adjusted, adjustedBasis, 'AAPL', tooLate)).toBe(adjusted);
    const otherRatio = [ledger[0], splitEntry('AAPL', 2, 1, '2014-06-09')];
    expect(closesOnLedgerBasis(adjusted, adjustedBasis, 'AAPL', otherRatio)).toBe(adjusted);
    const otherSymbol = [ledger[0], splitEntry('MSFT', 7, 1, '2014-06-09')];
    expect(closesOnLedgerBasis(adjusted, adjustedBasis, 'AAPL', otherSymbol)).toBe(adjusted);
  });

  it('leaves the closes adjusted when the ledger does not record the split (its quantities are adjusted too)', () => {
    expect(closesOnLedgerBasis(adjusted, adjustedBasis, 'AAPL', [ledger[0]])).toBe(adjusted);
  });

  it('applies every later recorded split to a close: 2:1 then 3:1 makes 6; a reverse split the other way', () => {
    const series = closes([
      ['2020-01-02', 10],
      ['2020-01-03', 20],
      ['2020-01-06', 60],
    ]);
    const basis: PriceBasis = {
      adjustedCloses: true,
      splits: [
        { date: '2020-01-06', to: 3, from: 1 },
        { date: '2020-01-03', to: 2, from: 1 },
      ],
    };
    const both = [splitEntry('X', 2, 1, '2020-01-03'), splitEntry('X', 3, 1, '2020-01-06')];
    expect(closesOnLedgerBasis(series, basis, 'X', both).map(({ close }) => close)).toEqual([60, 60, 60]);
    const reverse: PriceBasis = { adjustedCloses: true, splits: [{ date: '2020-01-03', to: 1, from: 10 }] };
    const recorded = [splitEntry('X', 1, 10, '2020-01-03')];
    expect(closesOnLedgerBasis(series, reverse, 'X', recorded).map(({ close }) => close)).toEqual([
      1, 20, 60,
    ]);
  });

  it('keeps the very same series when the closes are as traded or no split is known', () => {
    expect(
      closesOnLedgerBasis(adjusted, { adjustedCloses: false, splits: [aaplSplit] }, 'AAPL', ledger),
    ).toBe(adjusted);
    expect(closesOnLedgerBasis(adjusted, { adjustedCloses: true, splits: [] }, 'AAPL', ledger)).toBe(
      adjusted,
    );
  });
});

describe('valuing a recorded split on one basis', () => {
  it('double counts when split-adjusted closes meet the recorded split (the defect)', () => {
    const jump = valuesOf(adjusted).find(({ date }) => date === '2014-06-09')!;
    expect(jump.dailyReturn).toBeGreaterThan(6);
  });

  it('shows no jump at adjusted closes put back as traded: shares × close on each side', () => {
    const days = valuesOf(
      closesOnLedgerBasis(adjusted, { adjustedCloses: true, splits: [aaplSplit] }, 'AAPL', ledger),
    );
    expect(days.map(({ date }) => date)).toEqual(['2014-06-05', '2014-06-06', '2014-06-09', '2014-06-10']);
    expect(days[1].value).toBeCloseTo(10 * 92.2242 * 7, 8);
    expect(days[2].value).toBeCloseTo(70 * 93.7, 8);
    expect(days[2].dailyReturn).toBeCloseTo(93.7 / 92.2242 - 1, 10);
  });

  it('keeps the value continuous for a provider whose closes drop 7× at the split (not adjusted)', () => {
    const asTraded = closes([
      ['2014-06-05', 647.35],
      ['2014-06-06', 645.57],
      ['2014-06-09', 93.7],
      ['2014-06-10', 94.25],
    ]);
    const days = valuesOf(
      closesOnLedgerBasis(asTraded, { adjustedCloses: false, splits: [] }, 'AAPL', ledger),
    );
    expect(days[1].value).toBeCloseTo(10 * 645.57, 8);
    expect(days[2].value).toBeCloseTo(70 * 93.7, 8);
    expect(days[2].dailyReturn).toBeCloseTo((70 * 93.7) / (10 * 645.57) - 1, 10);
    expect(Math.abs(days[2].dailyReturn)).toBeLessThan(0.02);
  });
});
