import { coMovementClusters, effectiveIndependentBets } from './clusters';

describe('co-movement clusters', () => {
  const correlations: Record<string, number> = {
    'A|B': 0.8,
    'A|C': 0.7,
    'B|C': 0.75,
    'A|D': 0.1,
    'B|D': 0.05,
    'C|D': 0.0,
  };
  const correlationOf = (a: string, b: string) => correlations[[a, b].sort().join('|')] ?? null;
  const edges = [
    { a: 'A', b: 'B', correlation: 0.8 },
    { a: 'A', b: 'C', correlation: 0.7 },
    { a: 'B', b: 'C', correlation: 0.75 },
  ];
  const holdings = [
    { symbol: 'A', weight: 0.2 },
    { symbol: 'B', weight: 0.3 },
    { symbol: 'C', weight: 0.2 },
    { symbol: 'D', weight: 0.3 },
  ];

  it('groups the co-moving holdings, largest combined weight first, with the mean pairwise correlation', () => {
    const clusters = coMovementClusters(holdings, edges, correlationOf);
    expect(clusters).toHaveLength(2);
    expect(clusters[0].members).toEqual([
      { symbol: 'B', weight: 0.3 },
      { symbol: 'A', weight: 0.2 },
      { symbol: 'C', weight: 0.2 },
    ]);
    expect(clusters[0].combinedWeight).toBeCloseTo(0.7, 12);
    expect(clusters[0].averageCorrelation).toBeCloseTo(0.75, 12);
    expect(clusters[0].centralMember).toBe('B');
    expect(clusters[1]).toEqual({
      members: [{ symbol: 'D', weight: 0.3 }],
      combinedWeight: 0.3,
      averageCorrelation: null,
      centralMember: 'D',
    });
  });

  it('gives each holding a cluster of its own when none co-move, and nothing without holdings', () => {
    expect(coMovementClusters(holdings, [], correlationOf).map((c) => c.members.length)).toEqual([
      1, 1, 1, 1,
    ]);
    expect(coMovementClusters([], edges, correlationOf)).toEqual([]);
  });

  it('is the same whatever order the holdings come in', () => {
    const shuffled = [holdings[3], holdings[1], holdings[0], holdings[2]];
    expect(coMovementClusters(shuffled, [...edges].reverse(), correlationOf)).toEqual(
      coMovementClusters(holdings, edges, correlationOf),
    );
  });
});

describe('effective number of independent bets', () => {
  const equal = (n: number) => Array.from({ length: n }, (_, i) => ({ symbol: `S${i}`, weight: 1 / n }));

  it('is n for n uncorrelated equal holdings and 1 when they move as one', () => {
    expect(effectiveIndependentBets(equal(4), () => 0)).toBeCloseTo(4, 12);
    expect(effectiveIndependentBets(equal(4), () => 1)).toBeCloseTo(1, 12);
  });

  it('is (Σw)² / ΣΣ wᵢwⱼρᵢⱼ in between, negative correlations counting as zero', () => {
    // Two equal holdings at ρ = 0.5: 1 / (0.25 + 0.25 + 2 × 0.25 × 0.5) = 1.3333.
    expect(effectiveIndependentBets(equal(2), () => 0.5)).toBeCloseTo(4 / 3, 12);
    expect(effectiveIndependentBets(equal(2), () => -0.9)).toBeCloseTo(2, 12);
    expect(effectiveIndependentBets([], () => 0)).toBe(0);
  });
});
