import { summarisePositions } from './portfolio-summary';
import { ValuedPosition } from './position-valuation';

function position(
  symbol: string,
  sector: string,
  marketValue: number,
  costBasis: number,
  dayChange: number,
): ValuedPosition {
  return {
    symbol,
    sector,
    marketValue,
    costBasis,
    dayChange,
    quantity: 1,
    currentPrice: marketValue,
    unrealizedPnl: marketValue - costBasis,
    unrealizedPnlPercent: (100 * (marketValue - costBasis)) / costBasis,
    dayChangePercent: 0,
    weight: 0,
    lastUpdated: new Date(0),
  };
}

describe('summarisePositions', () => {
  it('totals values, P&L, day change and sector allocation', () => {
    // values 600 + 300 + 100 = 1000, cost 500 + 400 + 50 = 950 → +50 = 5.263%
    // day change 20 - 10 + 5 = 15 against 985 → 1.5228%
    const sut = summarisePositions(
      [
        position('AAPL', 'technology', 600, 500, 20),
        position('MSFT', 'technology', 300, 400, -10),
        position('XOM', 'energy', 100, 50, 5),
      ],
      42,
    );
    expect(sut).toEqual({
      totalValue: 1000,
      totalCost: 950,
      unrealizedPnl: 50,
      unrealizedPnlPercent: expect.closeTo(5000 / 950, 10),
      realizedPnl: 42,
      dayChange: 15,
      dayChangePercent: expect.closeTo(1500 / 985, 10),
      positionsCount: 3,
      sectorAllocation: [
        { sector: 'technology', marketValue: 900, weight: 90 },
        { sector: 'energy', marketValue: 100, weight: 10 },
      ],
      // XOM +100%, AAPL +20%, MSFT -25%
      bestPerformer: { symbol: 'XOM', unrealizedPnlPercent: 100 },
      worstPerformer: { symbol: 'MSFT', unrealizedPnlPercent: -25 },
    });
  });

  it('is all zeros with no performers for an empty portfolio', () => {
    expect(summarisePositions([], -3)).toMatchObject({
      totalValue: 0,
      unrealizedPnlPercent: 0,
      dayChangePercent: 0,
      realizedPnl: -3,
      positionsCount: 0,
      sectorAllocation: [],
      bestPerformer: null,
      worstPerformer: null,
    });
  });
});
