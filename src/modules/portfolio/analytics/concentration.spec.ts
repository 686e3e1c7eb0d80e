import { effectiveNumberOfHoldings, herfindahlIndex, largestWeight, sectorWeights } from './concentration';

describe('concentration', () => {
  const holdings = [
    { symbol: 'AAPL', sector: 'technology', weight: 0.3 },
    { symbol: 'MSFT', sector: 'technology', weight: 0.5 },
    { symbol: 'XOM', sector: 'energy', weight: 0.2 },
  ];

  it('Herfindahl index is the sum of squared weights', () => {
    // 0.09 + 0.25 + 0.04
    expect(herfindahlIndex([0.3, 0.5, 0.2])).toBeCloseTo(0.38, 12);
  });

  it('effective number of holdings is 1 / Herfindahl, N for N equal weights', () => {
    expect(effectiveNumberOfHoldings([0.3, 0.5, 0.2])).toBeCloseTo(1 / 0.38, 12);
    expect(effectiveNumberOfHoldings([0.25, 0.25, 0.25, 0.25])).toBeCloseTo(4, 12);
  });

  it('finds the largest weight', () => {
    expect(largestWeight(holdings)).toEqual(holdings[1]);
    expect(() => largestWeight([])).toThrow(RangeError);
  });

  it('sums weights per sector, heaviest first', () => {
    const sut = sectorWeights(holdings);
    expect(sut.map((sector) => sector.sector)).toEqual(['technology', 'energy']);
    expect(sut[0].weight).toBeCloseTo(0.8, 12);
    expect(sut[1].weight).toBeCloseTo(0.2, 12);
  });
});
