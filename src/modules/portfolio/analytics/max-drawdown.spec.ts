import { maxDrawdown } from './max-drawdown';

const series = (values: number[]) => values.map((value, index) => ({ date: `2017-01-${10 + index}`, value }));

describe('maxDrawdown', () => {
  it('finds the deepest fall from a running peak with its dates', () => {
    // 120 → 90 is 25%; the later 130 → 104 is only 20%
    const sut = maxDrawdown(series([100, 120, 90, 130, 104, 110]));
    expect(sut.maxDrawdown).toBeCloseTo(0.25, 12);
    expect(sut.peakDate).toBe('2017-01-11');
    expect(sut.troughDate).toBe('2017-01-12');
  });

  it('prefers a later, deeper fall from a new peak', () => {
    // 100 → 95 is 5%; 200 → 100 is 50%
    const sut = maxDrawdown(series([100, 95, 200, 150, 100, 180]));
    expect(sut).toEqual({ maxDrawdown: 0.5, peakDate: '2017-01-12', troughDate: '2017-01-14' });
  });

  it('is zero with no dates for a series that never falls', () => {
    expect(maxDrawdown(series([1, 1.1, 1.2]))).toEqual({ maxDrawdown: 0, peakDate: null, troughDate: null });
  });
});
