import { betaToBenchmark, correlationToBenchmark } from './benchmark-sensitivity';

describe('betaToBenchmark and correlationToBenchmark', () => {
  const benchmark = [0.01, -0.01, 0.02, 0];
  const portfolio = [0.02, -0.01, 0.01, 0.01];

  it('computes beta from the hand-made series', () => {
    // means: b 0.005, p 0.0075; db = [0.005, -0.015, 0.015, -0.005], dp = [0.0125, -0.0175, 0.0025, 0.0025]
    // Σdb·dp = 0.0000625 + 0.0002625 + 0.0000375 - 0.0000125 = 0.00035; Σdb² = 0.0005 → β = 0.7
    expect(betaToBenchmark(portfolio, benchmark)).toBeCloseTo(0.7, 12);
  });

  it('computes the correlation from the hand-made series', () => {
    // Σdp² = 0.00015625 + 0.00030625 + 0.00000625 + 0.00000625 = 0.000475
    // ρ = 0.00035 / √(0.0005 × 0.000475)
    expect(correlationToBenchmark(portfolio, benchmark)).toBeCloseTo(
      0.00035 / Math.sqrt(0.0005 * 0.000475),
      12,
    );
  });

  it('has beta 2 and correlation 1 for twice the benchmark plus a constant', () => {
    const leveraged = benchmark.map((value) => 2 * value + 0.001);
    expect(betaToBenchmark(leveraged, benchmark)).toBeCloseTo(2, 12);
    expect(correlationToBenchmark(leveraged, benchmark)).toBeCloseTo(1, 12);
  });

  it('is null against a benchmark that never moves', () => {
    expect(betaToBenchmark(portfolio, [0, 0, 0, 0])).toBeNull();
    expect(correlationToBenchmark(portfolio, [0, 0, 0, 0])).toBeNull();
  });
});
