import { valuePositions, ValuedPosition, weighWithCash } from './position-valuation';

describe('valuePositions', () => {
  const at = new Date('2018-02-07T21:00:00Z');
  const quotes = new Map([
    ['AAPL', { price: 160, change: -4, timestamp: at }],
    ['XOM', { price: 80, change: 2, timestamp: at }],
  ]);
  const sectors: Record<string, string> = { AAPL: 'technology', XOM: 'energy' };

  it('computes every field from the quote and the cost basis', () => {
    // AAPL: 10 × 160 = 1600; cost 1500 → +100 = 6.6667%; day -4 × 10 = -40 on 1640 → -2.439%
    // XOM: 5 × 80 = 400; cost 500 → -100 = -20%; day +10 on 390 → 2.564%; total 2000 → 80/20
    const sut = valuePositions(
      [
        { symbol: 'XOM', quantity: 5, costBasis: 500, realizedPnl: 0 },
        { symbol: 'AAPL', quantity: 10, costBasis: 1500, realizedPnl: 12 },
      ],
      quotes,
      (symbol) => sectors[symbol],
    );
    expect(sut).toEqual([
      {
        symbol: 'AAPL',
        quantity: 10,
        currentPrice: 160,
        costBasis: 1500,
        marketValue: 1600,
        unrealizedPnl: 100,
        unrealizedPnlPercent: expect.closeTo(100 / 15, 10),
        dayChange: -40,
        dayChangePercent: expect.closeTo(-4000 / 1640, 10),
        weight: 80,
        sector: 'technology',
        lastUpdated: at,
      },
      {
        symbol: 'XOM',
        quantity: 5,
        currentPrice: 80,
        costBasis: 500,
        marketValue: 400,
        unrealizedPnl: -100,
        unrealizedPnlPercent: -20,
        dayChange: 10,
        dayChangePercent: expect.closeTo(1000 / 390, 10),
        weight: 20,
        sector: 'energy',
        lastUpdated: at,
      },
    ]);
  });

  it('refuses a position without a quote', () => {
    expect(() =>
      valuePositions([{ symbol: 'T', quantity: 1, costBasis: 1, realizedPnl: 0 }], quotes, () => 'x'),
    ).toThrow(RangeError);
  });
});

describe('weighWithCash', () => {
  const position = (symbol: string, marketValue: number) =>
    ({ symbol, marketValue, weight: 0 }) as ValuedPosition;

  it('weighs the positions and the cash as parts of their sum', () => {
    const sut = weighWithCash([position('A', 600), position('B', 200)], 200);
    expect(sut.positions.map((p) => [p.symbol, p.weight])).toEqual([
      ['A', 60],
      ['B', 20],
    ]);
    expect(sut.cashWeight).toBe(20);
  });

  it('gives a negative balance no weight and leaves the positions their own', () => {
    const sut = weighWithCash([position('A', 600), position('B', 200)], -50);
    expect(sut.positions.map((p) => p.weight)).toEqual([75, 25]);
    expect(sut.cashWeight).toBe(0);
  });
});
