import { computeRiskMetrics, RiskMetricsInput } from './risk-metrics';

const dates = ['2017-01-02', '2017-01-03', '2017-01-04', '2017-01-05', '2017-01-06', '2017-01-09'];
const series = (closes: number[]) => closes.map((close, index) => ({ date: dates[index], close }));

// A: +10%, -10%, +5%, -20%, +10%; B: 0, +5%, -5%, 0, +2%; index: +1%, -1%, +2%, -3%, +1%
const aCloses = [100, 110, 99, 103.95, 83.16, 91.476];
const bCloses = [50, 50, 52.5, 49.875, 49.875, 50.8725];
const indexCloses = [1000, 1010, 999.9, 1019.898, 989.30106, 999.1940706];

function referenceSampleDeviation(values: number[]): number {
  const average = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - average) ** 2, 0) / (values.length - 1));
}

describe('computeRiskMetrics', () => {
  const input: RiskMetricsInput = {
    holdings: [
      { symbol: 'B', sector: 'energy', marketValue: 400 },
      { symbol: 'A', sector: 'technology', marketValue: 600 },
    ],
    closesBySymbol: new Map([
      ['A', series(aCloses)],
      ['B', series(bCloses)],
    ]),
    benchmark: { symbol: '^GSPC', closes: series(indexCloses) },
    lookbackDays: 252,
    annualRiskFreeRate: 0.02,
  };
  // portfolio = 0.6 A + 0.4 B: 0.06, -0.04, 0.01, -0.12, 0.068
  const portfolio = [0.06, -0.04, 0.01, -0.12, 0.068];
  const benchmark = [0.01, -0.01, 0.02, -0.03, 0.01];

  it('measures the constant-weight portfolio over the common window', () => {
    const sut = computeRiskMetrics(input);
    expect(sut.totalValue).toBe(1000);
    expect(sut.window).toEqual({ startDate: '2017-01-02', endDate: '2017-01-09', observations: 5 });
    expect(sut.volatility).toBeCloseTo(referenceSampleDeviation(portfolio) * Math.sqrt(252), 10);
    // mean = -0.022 / 5 = -0.0044 a day
    expect(sut.annualisedReturn).toBeCloseTo(-0.0044 * 252, 10);
    expect(sut.sharpeRatio).toBeCloseTo(
      ((-0.0044 - 0.02 / 252) / referenceSampleDeviation(portfolio)) * Math.sqrt(252),
      8,
    );
  });

  it('relates the portfolio to the benchmark', () => {
    const sut = computeRiskMetrics(input);
    const mp = portfolio.reduce((a, b) => a + b) / 5;
    const mb = benchmark.reduce((a, b) => a + b) / 5;
    const covariance = portfolio.reduce((sum, p, t) => sum + (p - mp) * (benchmark[t] - mb), 0) / 4;
    const benchmarkVariance = benchmark.reduce((sum, b) => sum + (b - mb) ** 2, 0) / 4;
    expect(sut.beta).toBeCloseTo(covariance / benchmarkVariance, 8);
    expect(sut.correlation).toBeCloseTo(
      covariance / (referenceSampleDeviation(portfolio) * referenceSampleDeviation(benchmark)),
      8,
    );
  });

  it('finds the drawdown on the wealth index and the tail losses in fractions and dollars', () => {
    const sut = computeRiskMetrics(input);
    // wealth: 1, 1.06, 1.0176, 1.027776, 0.90444288, ... → peak 1.06 on the 3rd, trough on the 6th
    expect(sut.drawdown!.peakDate).toBe('2017-01-03');
    expect(sut.drawdown!.troughDate).toBe('2017-01-06');
    expect(sut.drawdown!.maxDrawdown).toBeCloseTo(1 - 0.90444288 / 1.06, 10);
    // 5 days: the worst day (-12%) is both the 95% and the 99% VaR
    expect(sut.tailRisk).toEqual([
      expect.objectContaining({ confidence: 0.95, valueAtRisk: expect.closeTo(0.12, 10) }),
      expect.objectContaining({ confidence: 0.99, valueAtRisk: expect.closeTo(0.12, 10) }),
    ]);
    expect(sut.tailRisk![0].valueAtRiskAmount).toBeCloseTo(120, 8);
    expect(sut.tailRisk![0].conditionalValueAtRiskAmount).toBeCloseTo(120, 8);
  });

  it('reports concentration, sectors, the correlation of the top holdings and a risk level', () => {
    const sut = computeRiskMetrics(input);
    expect(sut.concentration!.herfindahlIndex).toBeCloseTo(0.36 + 0.16, 12);
    expect(sut.concentration!.largestWeight).toEqual({ symbol: 'A', sector: 'technology', weight: 0.6 });
    expect(sut.sectorConcentration!.sectors).toEqual([
      { sector: 'technology', weight: 0.6 },
      { sector: 'energy', weight: 0.4 },
    ]);
    expect(sut.topHoldingsCorrelation!.symbols).toEqual(['A', 'B']);
    expect(sut.riskLevel).toBe('aggressive');
    expect(sut.notes).toContain('Only 5 daily returns are available for all holdings (252 requested).');
  });

  it('returns nulls and an explanatory note for an empty portfolio', () => {
    const sut = computeRiskMetrics({ ...input, holdings: [] });
    expect(sut).toMatchObject({
      totalValue: 0,
      volatility: null,
      beta: null,
      riskLevel: null,
      concentration: null,
    });
    expect(sut.notes).toEqual(['The portfolio has no positions, so there is nothing to measure yet.']);
  });

  it('leaves out holdings without history and works without a benchmark', () => {
    const sut = computeRiskMetrics({
      ...input,
      holdings: [...input.holdings, { symbol: 'NEW', sector: 'utilities', marketValue: 1000 }],
      benchmark: null,
    });
    // the return series is that of A and B alone, still 60/40 between them
    expect(sut.volatility).toBeCloseTo(referenceSampleDeviation(portfolio) * Math.sqrt(252), 10);
    expect(sut.beta).toBeNull();
    expect(sut.concentration!.largestWeight.symbol).toBe('NEW');
    expect(sut.notes).toEqual(
      expect.arrayContaining([
        'No price history for NEW; left out of the return-based metrics.',
        'No benchmark history, so beta and correlation are not available.',
      ]),
    );
  });

  it('uses only the last lookback returns', () => {
    const sut = computeRiskMetrics({ ...input, lookbackDays: 2 });
    expect(sut.window).toEqual({ startDate: '2017-01-05', endDate: '2017-01-09', observations: 2 });
    expect(sut.volatility).toBeCloseTo(referenceSampleDeviation([-0.12, 0.068]) * Math.sqrt(252), 10);
  });
});
