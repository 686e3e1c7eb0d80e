import fc from 'fast-check';
import { positionContributions } from './contribution';
import { LedgerEntry } from './ledger-replay';
import { tradeOn } from '../../../../test/support/ledger-entries';
import { dailyValuations, HISTORY_PERIODS, timeWeightedReturns } from './time-weighted-returns';
import { historyStart, valueHistory } from './value-history';

describe('positionContributions', () => {
  // docs/portfolio.md's example: 10 A and 10 B at 100 on Jan 2; A 120 and B 90 on Jan 31; B sold at 90
  // on Feb 1; A 132 on Mar 1
  const ledger = [
    tradeOn('2017-01-02', 'A', 'buy', 10, 100),
    tradeOn('2017-01-02', 'B', 'buy', 10, 100),
    tradeOn('2017-02-01', 'B', 'sell', 10, 90),
  ];
  const closes = new Map([
    [
      'A',
      [
        { date: '2017-01-02', close: 100 },
        { date: '2017-01-31', close: 120 },
        { date: '2017-02-01', close: 120 },
        { date: '2017-03-01', close: 132 },
      ],
    ],
    [
      'B',
      [
        { date: '2017-01-02', close: 100 },
        { date: '2017-01-31', close: 90 },
        { date: '2017-02-01', close: 90 },
      ],
    ],
  ]);

  it('splits each day over the positions and links the days with the growth before them', () => {
    // Jan 31: +200 (A) and −100 (B) on the 2,000 at work: +10 and −5 points, +5%.
    // Mar 1: +120 (A) on the 1,200 at work after B's sale, +10%, after a growth of 1.05: +10.5 points.
    // A: 10 + 10.5 = 20.5 points, B: −5; together 1.05 × 1.1 − 1 = +15.5%
    const sut = positionContributions(ledger, closes, '2017-03-01', '2017-01-01');
    expect(sut).toEqual([
      { symbol: 'A', contribution: expect.closeTo(0.205, 12) },
      { symbol: 'B', contribution: expect.closeTo(-0.05, 12) },
    ]);
    expect(sut[0].contribution + sut[1].contribution).toBeCloseTo(
      timeWeightedReturns(ledger, closes, '2017-03-01').ALL!,
      12,
    );
  });

  it('leaves out a position sold before the period, and is empty when nothing was at work', () => {
    // 1M from Feb 1: only A, held through Mar 1 (+10%)
    expect(positionContributions(ledger, closes, '2017-03-01', '2017-02-01')).toEqual([
      { symbol: 'A', contribution: expect.closeTo(0.1, 12) },
    ]);
    const soldOut = [tradeOn('2017-01-02', 'A', 'buy', 1, 100), tradeOn('2017-01-31', 'A', 'sell', 1, 120)];
    expect(positionContributions(soldOut, closes, '2017-03-01', '2017-02-01')).toEqual([]);
    expect(positionContributions([], closes, '2017-03-01', '2017-01-01')).toEqual([]);
  });

  it('counts a position bought and sold within one day by its round trip', () => {
    // C bought at 50 and sold at 55 on Jan 31, beside A: +50 on the 1,000 + 500 at work that day
    const dayTrade = [
      tradeOn('2017-01-02', 'A', 'buy', 10, 100),
      tradeOn('2017-01-31', 'C', 'buy', 10, 50),
      tradeOn('2017-01-31', 'C', 'sell', 10, 55),
    ];
    const sut = positionContributions(dayTrade, closes, '2017-01-31', '2017-01-01');
    expect(sut).toEqual([
      { symbol: 'A', contribution: expect.closeTo(200 / 1500, 12) },
      { symbol: 'C', contribution: expect.closeTo(50 / 1500, 12) },
    ]);
  });

  it("sums to the history's cumulative return of every period, whatever the trades", () => {
    const days = ['2017-01-03', '2017-01-10', '2017-02-01', '2017-02-15', '2017-03-01', '2017-03-20'];
    const symbols = ['A', 'B', 'C'];
    const scenario = fc.record({
      closes: fc.array(
        fc.array(fc.integer({ min: 50, max: 150 }), { minLength: days.length, maxLength: days.length }),
        {
          minLength: symbols.length,
          maxLength: symbols.length,
        },
      ),
      trades: fc.array(
        fc.record({
          symbol: fc.constantFrom(...symbols),
          day: fc.nat({ max: days.length - 1 }),
          quantity: fc.integer({ min: 1, max: 20 }),
          sell: fc.boolean(),
        }),
        { minLength: 1, maxLength: 12 },
      ),
    });
    fc.assert(
      fc.property(scenario, (input) => {
        const closesBySymbol = new Map(
          symbols.map((symbol, s) => [symbol, days.map((date, d) => ({ date, close: input.closes[s][d] }))]),
        );
        // sells never exceed the quantity held at their day
        const held = new Map<string, number>();
        const entries = [...input.trades]
          .sort((a, b) => a.day - b.day)
          .flatMap(({ symbol, day, quantity, sell }) => {
            const owned = held.get(symbol) ?? 0;
            const sold = sell ? Math.min(owned, quantity) : 0;
            if (sell && sold === 0) return [];
            held.set(symbol, sell ? owned - sold : owned + quantity);
            const price = closesBySymbol.get(symbol)![day].close;
            return [tradeOn(days[day], symbol, sell ? 'sell' : 'buy', sell ? sold : quantity, price)];
          });
        const asOf = '2017-03-20';
        const valuations = dailyValuations(entries, closesBySymbol, asOf);
        for (const period of HISTORY_PERIODS) {
          const start = historyStart(period, asOf, valuations[0]?.date ?? asOf);
          const total = positionContributions(entries, closesBySymbol, asOf, start).reduce(
            (sum, { contribution }) => sum + contribution,
            0,
          );
          const points = valueHistory(valuations, [], period, asOf);
          expect(total).toBeCloseTo(points.at(-1)?.cumulativeReturn ?? 0, 9);
        }
      }),
    );
  });

  // Issue 21, defect 14: a fee on a symbol never held was left out of every contribution. The ledger
  // now refuses such a fee, but a stored one (or a dividend or fee after a sell-out) still counts.
  it('sums to the return with dividends and position fees, also on a symbol never held', () => {
    const days = ['2017-01-03', '2017-01-10', '2017-02-01', '2017-02-15', '2017-03-01', '2017-03-20'];
    const symbols = ['A', 'B', 'C'];
    const closesBySymbol = new Map(
      symbols.map((symbol, s) => [symbol, days.map((date, d) => ({ date, close: 80 + 10 * s + 7 * d }))]),
    );
    const event = fc.record({
      kind: fc.constantFrom('buy', 'sell', 'dividend', 'fee'),
      symbol: fc.constantFrom(...symbols),
      day: fc.nat({ max: days.length - 1 }),
      size: fc.integer({ min: 1, max: 20 }),
    });
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 14 }), (events) => {
        const held = new Map<string, number>();
        const entries = [...events]
          .sort((a, b) => a.day - b.day)
          .flatMap(({ kind, symbol, day, size }): LedgerEntry[] => {
            const owned = held.get(symbol) ?? 0;
            const base = { ...tradeOn(days[day], symbol, 'buy', 0, 0) };
            switch (kind) {
              case 'buy':
                held.set(symbol, owned + size);
                return [tradeOn(days[day], symbol, 'buy', size, closesBySymbol.get(symbol)![day].close)];
              case 'sell':
                if (owned === 0) return [];
                held.set(symbol, owned - Math.min(owned, size));
                return [
                  tradeOn(
                    days[day],
                    symbol,
                    'sell',
                    Math.min(owned, size),
                    closesBySymbol.get(symbol)![day].close,
                  ),
                ];
              case 'dividend':
                return owned > 0 ? [{ ...base, side: 'dividend', amount: size }] : [];
              default:
                return [{ ...base, side: 'fee', amount: size }];
            }
          });
        const asOf = '2017-03-20';
        const valuations = dailyValuations(entries, closesBySymbol, asOf);
        for (const period of HISTORY_PERIODS) {
          const start = historyStart(period, asOf, valuations[0]?.date ?? asOf);
          const total = positionContributions(entries, closesBySymbol, asOf, start).reduce(
            (sum, { contribution }) => sum + contribution,
            0,
          );
          const points = valueHistory(valuations, [], period, asOf);
          expect(total).toBeCloseTo(points.at(-1)?.cumulativeReturn ?? 0, 9);
        }
      }),
      { numRuns: 200 },
    );
  });
});
