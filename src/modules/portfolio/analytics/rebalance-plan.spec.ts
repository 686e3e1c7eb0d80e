import fc from 'fast-check';
import { planRebalance, RebalanceInput } from './rebalance-plan';

const prices = (entries: Record<string, number>) => new Map(Object.entries(entries));

describe('planRebalance', () => {
  it('sells the overweight and buys the underweight in whole shares', () => {
    // T = 60 × 100 + 40 × 50 = 8000; target 50/50 → 4000 each
    // AAPL: sell 2000 / 100 = 20 shares; MSFT: buy 2000 / 50 = 40 shares
    const sut = planRebalance({
      holdings: [
        { symbol: 'AAPL', quantity: 60, price: 100 },
        { symbol: 'MSFT', quantity: 40, price: 50 },
      ],
      targets: [
        { symbol: 'AAPL', weight: 50 },
        { symbol: 'MSFT', weight: 50 },
      ],
      prices: prices({ AAPL: 100, MSFT: 50 }),
      tolerance: 0,
      cash: 0,
      fractional: false,
    });
    expect(sut.trades).toEqual([
      { symbol: 'AAPL', side: 'sell', quantity: 20, price: 100, value: 2000 },
      { symbol: 'MSFT', side: 'buy', quantity: 40, price: 50, value: 2000 },
    ]);
    expect(sut.before).toEqual([
      { symbol: 'AAPL', weight: 75 },
      { symbol: 'MSFT', weight: 25 },
    ]);
    expect(sut.after).toEqual([
      { symbol: 'AAPL', weight: 50 },
      { symbol: 'MSFT', weight: 50 },
    ]);
    // (2000 + 2000) / 2 / 8000 = 25%
    expect(sut.turnover).toBe(25);
    expect(sut.cashRemaining).toBe(0);
  });

  it('liquidates held symbols without a target and invests the cash in new ones', () => {
    // T = 10 × 30 + 700 cash = 1000; XOM target 0 → sell all 10; V target 100% → 1000 / 99 = 10.1 → 10 shares
    const sut = planRebalance({
      holdings: [{ symbol: 'XOM', quantity: 10, price: 30 }],
      targets: [{ symbol: 'V', weight: 100 }],
      prices: prices({ XOM: 30, V: 99 }),
      tolerance: 0,
      cash: 700,
      fractional: false,
    });
    expect(sut.trades).toEqual([
      { symbol: 'V', side: 'buy', quantity: 10, price: 99, value: 990 },
      { symbol: 'XOM', side: 'sell', quantity: 10, price: 30, value: 300 },
    ]);
    expect(sut.cashRemaining).toBeCloseTo(10, 9);
  });

  it('leaves drifts within the tolerance alone', () => {
    // weights 52/48 against 50/50: drift 2 points ≤ 3
    const sut = planRebalance({
      holdings: [
        { symbol: 'A', quantity: 52, price: 10 },
        { symbol: 'B', quantity: 48, price: 10 },
      ],
      targets: [
        { symbol: 'A', weight: 50 },
        { symbol: 'B', weight: 50 },
      ],
      prices: prices({ A: 10, B: 10 }),
      tolerance: 3,
      cash: 0,
      fractional: false,
    });
    expect(sut.trades).toEqual([]);
    expect(sut.turnover).toBe(0);
  });

  it('funds an out-of-band buy by trimming in-band overweights toward their target', () => {
    // T = 1000: A 24%, B 24%, C 52% against 20/20/60 with a tolerance of 5 points.
    // C drifts -8 (out of band, wants 80); A and B drift +4 (in band) and sell 40 each to fund it
    const sut = planRebalance({
      holdings: [
        { symbol: 'A', quantity: 24, price: 10 },
        { symbol: 'B', quantity: 24, price: 10 },
        { symbol: 'C', quantity: 52, price: 10 },
      ],
      targets: [
        { symbol: 'A', weight: 20 },
        { symbol: 'B', weight: 20 },
        { symbol: 'C', weight: 60 },
      ],
      prices: prices({ A: 10, B: 10, C: 10 }),
      tolerance: 5,
      cash: 0,
      fractional: false,
    });
    expect(sut.trades).toEqual([
      { symbol: 'A', side: 'sell', quantity: 4, price: 10, value: 40 },
      { symbol: 'B', side: 'sell', quantity: 4, price: 10, value: 40 },
      { symbol: 'C', side: 'buy', quantity: 8, price: 10, value: 80 },
    ]);
  });

  it('spends leftover money on a share that brings a symbol closer to its target', () => {
    // 1000 cash, 50/50 at 300 and 260: floors buy 1 A (short 200) and 1 B (short 240), 440 left;
    // B is further short and more than half a share (130) below → +1 B (180 left, not enough for A)
    const sut = planRebalance({
      holdings: [],
      targets: [
        { symbol: 'A', weight: 50 },
        { symbol: 'B', weight: 50 },
      ],
      prices: prices({ A: 300, B: 260 }),
      tolerance: 0,
      cash: 1000,
      fractional: false,
    });
    expect(sut.trades.map((trade) => [trade.symbol, trade.quantity])).toEqual([
      ['A', 1],
      ['B', 2],
    ]);
    expect(sut.cashRemaining).toBeCloseTo(180, 9);
  });

  it('buys fractions when asked', () => {
    // T = 1000 cash; 30% of 1000 at 7 = 42.857142… shares → 42.857142
    const sut = planRebalance({
      holdings: [],
      targets: [
        { symbol: 'A', weight: 30 },
        { symbol: 'B', weight: 70 },
      ],
      prices: prices({ A: 7, B: 3 }),
      tolerance: 0,
      cash: 1000,
      fractional: true,
    });
    expect(sut.trades.map((trade) => trade.quantity)).toEqual([42.857142, 233.333333]);
    expect(sut.cashRemaining).toBeGreaterThanOrEqual(0);
    expect(sut.cashRemaining).toBeLessThan(0.00001);
  });

  it('returns an empty plan for an empty portfolio without cash', () => {
    expect(
      planRebalance({
        holdings: [],
        targets: [{ symbol: 'A', weight: 100 }],
        prices: prices({ A: 1 }),
        tolerance: 0,
        cash: 0,
        fractional: false,
      }),
    ).toEqual({ trades: [], before: [], after: [], turnover: 0, totalValue: 0, cashRemaining: 0 });
  });

  it('refuses a symbol without a price', () => {
    expect(() =>
      planRebalance({
        holdings: [],
        targets: [{ symbol: 'A', weight: 100 }],
        prices: new Map(),
        tolerance: 0,
        cash: 1,
        fractional: false,
      }),
    ).toThrow(RangeError);
  });
});

describe('planRebalance properties', () => {
  const symbols = ['S0', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7'];

  const scenario = fc
    .record({
      prices: fc.array(fc.integer({ min: 100, max: 100_000 }), {
        minLength: symbols.length,
        maxLength: symbols.length,
      }),
      held: fc.array(fc.nat({ max: 400 }), { minLength: symbols.length, maxLength: symbols.length }),
      targetPoints: fc.array(fc.nat({ max: 100 }), { minLength: symbols.length, maxLength: symbols.length }),
      tolerance: fc.integer({ min: 0, max: 1000 }).map((hundredths) => hundredths / 100),
      cash: fc.integer({ min: 0, max: 5_000_000 }).map((cents) => cents / 100),
      fractional: fc.boolean(),
    })
    .filter(({ targetPoints }) => targetPoints.some((points) => points > 0))
    .map(({ prices: cents, held, targetPoints, tolerance, cash, fractional }): RebalanceInput => {
      // targets in basis points summing to exactly 10 000, then to percent
      const pointsTotal = targetPoints.reduce((a, b) => a + b, 0);
      const basisPoints = targetPoints.map((points) => Math.floor((points * 10_000) / pointsTotal));
      const firstTargeted = targetPoints.findIndex((points) => points > 0);
      basisPoints[firstTargeted] += 10_000 - basisPoints.reduce((a, b) => a + b, 0);
      return {
        holdings: symbols.flatMap((symbol, i) =>
          held[i] > 0 ? [{ symbol, quantity: held[i], price: cents[i] / 100 }] : [],
        ),
        targets: symbols.flatMap((symbol, i) =>
          basisPoints[i] > 0 ? [{ symbol, weight: basisPoints[i] / 100 }] : [],
        ),
        prices: new Map(symbols.map((symbol, i) => [symbol, cents[i] / 100])),
        tolerance,
        cash,
        fractional,
      };
    });

  it('lands every symbol within its tolerance or one share (whole) of its target, within the money', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const sut = planRebalance(input);
        if (sut.totalValue === 0) return;
        const heldOf = (symbol: string) =>
          input.holdings.find((holding) => holding.symbol === symbol)?.quantity ?? 0;
        const targetOf = (symbol: string) =>
          input.targets.find((target) => target.symbol === symbol)?.weight ?? 0;

        // recompute the after weights from the trades, independently of the plan's own figures
        const quantities = new Map(input.holdings.map((holding) => [holding.symbol, holding.quantity]));
        let bought = 0;
        let sold = 0;
        for (const trade of sut.trades) {
          expect(trade.quantity).toBeGreaterThan(0);
          if (trade.side === 'sell') {
            expect(trade.quantity).toBeLessThanOrEqual(heldOf(trade.symbol));
            sold += trade.quantity * trade.price;
          } else {
            bought += trade.quantity * trade.price;
          }
          if (!input.fractional) expect(Number.isInteger(trade.quantity)).toBe(true);
          quantities.set(
            trade.symbol,
            (quantities.get(trade.symbol) ?? 0) + (trade.side === 'buy' ? 1 : -1) * trade.quantity,
          );
        }
        expect(bought).toBeLessThanOrEqual(sold + input.cash + 1e-6);

        const total =
          input.holdings.reduce((sum, holding) => sum + holding.quantity * holding.price, 0) + input.cash;
        for (const symbol of new Set([
          ...quantities.keys(),
          ...input.targets.map((target) => target.symbol),
        ])) {
          const price = input.prices.get(symbol)!;
          const afterWeight = (100 * (quantities.get(symbol) ?? 0) * price) / total;
          const rounding = input.fractional ? 1e-3 : (100 * price) / total;
          expect(Math.abs(afterWeight - targetOf(symbol))).toBeLessThanOrEqual(
            input.tolerance + rounding + 1e-6,
          );
        }
      }),
      { numRuns: 500 },
    );
  });
});
