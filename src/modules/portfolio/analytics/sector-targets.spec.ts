import { symbolTargetsFromSectors } from './sector-targets';

describe('symbolTargetsFromSectors', () => {
  const holdings = [
    { symbol: 'AAPL', sector: 'technology', marketValue: 3000 },
    { symbol: 'MSFT', sector: 'technology', marketValue: 1000 },
    { symbol: 'XOM', sector: 'energy', marketValue: 2000 },
    { symbol: 'DUK', sector: 'utilities', marketValue: 500 },
  ];

  it('splits a sector target by current value inside the sector and zeroes unlisted sectors', () => {
    // technology 60% split 3:1 → 45% and 15%; energy 40%; utilities not listed → 0
    const sut = symbolTargetsFromSectors(holdings, [
      { sector: 'technology', weight: 60 },
      { sector: 'energy', weight: 40 },
    ]);
    expect(sut).toEqual({
      targets: [
        { symbol: 'AAPL', weight: 45 },
        { symbol: 'MSFT', weight: 15 },
        { symbol: 'XOM', weight: 40 },
        { symbol: 'DUK', weight: 0 },
      ],
      sectorsWithoutHoldings: [],
    });
  });

  it('reports the index of every weighted sector that has no holding', () => {
    const sut = symbolTargetsFromSectors(holdings, [
      { sector: 'technology', weight: 50 },
      { sector: 'healthcare', weight: 30 },
      { sector: 'finance', weight: 0 },
      { sector: 'materials', weight: 20 },
    ]);
    expect(sut.sectorsWithoutHoldings).toEqual([1, 3]);
  });
});
