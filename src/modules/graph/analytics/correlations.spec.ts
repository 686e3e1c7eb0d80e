import { coMovingPairs, dailyReturns, dot, unitDeviations } from './correlations';

/** Textbook Pearson correlation, computed apart from the unit-deviation form. */
function pearson(xs: number[], ys: number[]): number {
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const mx = mean(xs);
  const my = mean(ys);
  const cov = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i] - my), 0);
  const sx = Math.sqrt(xs.reduce((sum, x) => sum + (x - mx) ** 2, 0));
  const sy = Math.sqrt(ys.reduce((sum, y) => sum + (y - my) ** 2, 0));
  return cov / (sx * sy);
}

describe('correlations of daily returns', () => {
  it('turns n closes into n − 1 simple returns', () => {
    expect([...dailyReturns([100, 110, 99])]).toEqual([0.10000000000000009, -0.09999999999999998]);
  });

  it('gives the Pearson correlation as the dot product of unit deviations', () => {
    const xs = [0.01, -0.02, 0.015, 0.003, -0.007, 0.02];
    const ys = [0.012, -0.018, 0.01, 0.001, -0.01, 0.017];
    expect(dot(unitDeviations(xs)!, unitDeviations(ys)!)).toBeCloseTo(pearson(xs, ys), 12);
  });

  it('has no correlation for a series that never moved', () => {
    expect(unitDeviations([0, 0, 0])).toBeNull();
  });

  it('lists each pair at or above the threshold once, in symbol order', () => {
    const up = unitDeviations([0.01, -0.02, 0.03, -0.01])!;
    const same = unitDeviations([0.02, -0.04, 0.06, -0.02])!;
    const opposite = unitDeviations([-0.01, 0.02, -0.03, 0.01])!;
    const pairs = coMovingPairs(
      new Map([
        ['B', same],
        ['A', up],
        ['C', opposite],
      ]),
      0.6,
    );
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ a: 'A', b: 'B' });
    expect(pairs[0].correlation).toBeCloseTo(1, 12);
  });
});
