import {
  mean,
  pearsonCorrelation,
  sampleCovariance,
  sampleStandardDeviation,
  sampleVariance,
} from './statistics';

describe('statistics', () => {
  it('mean of [1, 2, 3, 6] is 12 / 4 = 3', () => {
    expect(mean([1, 2, 3, 6])).toBe(3);
  });

  it('rejects an empty series', () => {
    expect(() => mean([])).toThrow(RangeError);
  });

  it('sample variance divides the squared deviations by n - 1', () => {
    // deviations from 3: -2, -1, 0, 3 → squares 4 + 1 + 0 + 9 = 14 → 14 / 3
    expect(sampleVariance([1, 2, 3, 6])).toBeCloseTo(14 / 3, 12);
    expect(sampleStandardDeviation([1, 2, 3, 6])).toBeCloseTo(Math.sqrt(14 / 3), 12);
  });

  it('sample covariance of x and 2x + 1 is twice the variance of x', () => {
    const xs = [1, 2, 3, 6];
    expect(
      sampleCovariance(
        xs,
        xs.map((x) => 2 * x + 1),
      ),
    ).toBeCloseTo((2 * 14) / 3, 12);
  });

  it('needs two observations for a covariance', () => {
    expect(() => sampleCovariance([1], [1])).toThrow(RangeError);
  });

  it('correlation is 1 for a positive linear map, -1 for a negative one, null for a constant', () => {
    const xs = [0.01, -0.02, 0.03, 0.005];
    expect(
      pearsonCorrelation(
        xs,
        xs.map((x) => 3 * x - 1),
      ),
    ).toBeCloseTo(1, 12);
    expect(
      pearsonCorrelation(
        xs,
        xs.map((x) => -0.5 * x),
      ),
    ).toBeCloseTo(-1, 12);
    expect(pearsonCorrelation(xs, [2, 2, 2, 2])).toBeNull();
  });

  it('correlation of two hand-made series matches the textbook formula', () => {
    // x = [1, 2, 3], y = [1, 3, 2]: dx = [-1, 0, 1], dy = [-1, 1, 0]
    // Σdxdy = 1, Σdx² = 2, Σdy² = 2 → r = 1 / 2
    expect(pearsonCorrelation([1, 2, 3], [1, 3, 2])).toBeCloseTo(0.5, 12);
  });
});
