import { historicalTailRisk } from './value-at-risk';

describe('historicalTailRisk', () => {
  // 100 days: ten losses of 1% to 10% and ninety gains of 1%, out of order
  const losses = Array.from({ length: 10 }, (_, index) => -(index + 1) / 100);
  const returns = [...Array.from({ length: 90 }, () => 0.01), ...losses].reverse();

  it('95%: the 5th worst of 100 days and the mean of the five worst', () => {
    // k = ⌈100 × 0.05⌉ = 5 → worst five: 10%, 9%, 8%, 7%, 6% → VaR 6%, CVaR 8%
    const sut = historicalTailRisk(returns, 0.95);
    expect(sut.valueAtRisk).toBeCloseTo(0.06, 12);
    expect(sut.conditionalValueAtRisk).toBeCloseTo(0.08, 12);
  });

  it('99%: the single worst of 100 days', () => {
    const sut = historicalTailRisk(returns, 0.99);
    expect(sut.valueAtRisk).toBeCloseTo(0.1, 12);
    expect(sut.conditionalValueAtRisk).toBeCloseTo(0.1, 12);
  });

  it('rounds the tail size up and keeps at least one day', () => {
    // 30 days at 95%: k = ⌈1.5⌉ = 2 → the two worst, -4% and -3%
    const thirty = [-0.04, -0.03, ...Array.from({ length: 28 }, () => 0.002)];
    expect(historicalTailRisk(thirty, 0.95)).toEqual({ valueAtRisk: 0.03, conditionalValueAtRisk: 0.035 });
    expect(historicalTailRisk([0.01, -0.02], 0.99).valueAtRisk).toBe(0.02);
  });

  it('rejects an empty series and a confidence outside (0, 1)', () => {
    expect(() => historicalTailRisk([], 0.95)).toThrow(RangeError);
    expect(() => historicalTailRisk([0.01], 1)).toThrow(RangeError);
  });
});
