import { annualisedMeanReturn, annualisedVolatility, TRADING_DAYS_PER_YEAR } from './volatility';

describe('annualisedVolatility', () => {
  it('is the sample deviation of daily returns times √252', () => {
    // r = [0.01, -0.02, 0.03, 0]: mean 0.005, deviations 0.005, -0.025, 0.025, -0.005
    // Σd² = 0.000025 + 0.000625 + 0.000625 + 0.000025 = 0.0013; s² = 0.0013 / 3
    const expected = Math.sqrt(0.0013 / 3) * Math.sqrt(252);
    expect(annualisedVolatility([0.01, -0.02, 0.03, 0])).toBeCloseTo(expected, 12);
    expect(expected).toBeCloseTo(0.33045, 5);
  });

  it('is zero for constant returns', () => {
    expect(annualisedVolatility([0.001, 0.001, 0.001])).toBe(0);
  });
});

describe('annualisedMeanReturn', () => {
  it('is the mean daily return times 252', () => {
    expect(annualisedMeanReturn([0.01, -0.02, 0.03, 0])).toBeCloseTo(0.005 * TRADING_DAYS_PER_YEAR, 12);
  });
});
