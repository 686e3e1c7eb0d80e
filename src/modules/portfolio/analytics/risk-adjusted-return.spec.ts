import { dailyRiskFreeRate, sharpeRatio, sortinoRatio } from './risk-adjusted-return';

describe('risk-adjusted returns', () => {
  const returns = [0.01, -0.02, 0.03, 0];
  // rf = 2.52% a year → 0.0001 a day, so the mean excess return is 0.005 - 0.0001 = 0.0049
  const annualRiskFree = 0.0252;

  it('spreads the annual risk-free rate over 252 days', () => {
    expect(dailyRiskFreeRate(annualRiskFree)).toBeCloseTo(0.0001, 15);
  });

  it('Sharpe: mean excess return over the sample deviation, times √252', () => {
    // s = √(0.0013 / 3) (see volatility.spec)
    const expected = (0.0049 / Math.sqrt(0.0013 / 3)) * Math.sqrt(252);
    expect(sharpeRatio(returns, annualRiskFree)).toBeCloseTo(expected, 10);
    expect(expected).toBeCloseTo(3.7367, 3);
  });

  it('Sortino: mean excess return over the downside deviation against rf, times √252', () => {
    // r - rf_d = [0.0099, -0.0201, 0.0299, -0.0001]; shortfalls² = 0.00040401 + 0.00000001
    // DD = √(0.00040402 / 4)
    const expected = (0.0049 / Math.sqrt(0.00040402 / 4)) * Math.sqrt(252);
    expect(sortinoRatio(returns, annualRiskFree)).toBeCloseTo(expected, 10);
    expect(expected).toBeCloseTo(7.7397, 3);
  });

  it('is null when the deviation is zero', () => {
    expect(sharpeRatio([0.01, 0.01, 0.01], 0.02)).toBeNull();
    expect(sortinoRatio([0.01, 0.02, 0.03], 0.02)).toBeNull();
    // a flat series below the risk-free rate has shortfalls but no volatility: both null
    expect(sharpeRatio([0, 0, 0], 0.02)).toBeNull();
    expect(sortinoRatio([0, 0, 0], 0.02)).toBeNull();
  });

  it('is negative when returns trail the risk-free rate', () => {
    expect(sharpeRatio([-0.01, 0.005, -0.002], 0.02)!).toBeLessThan(0);
    expect(sortinoRatio([-0.01, 0.005, -0.002], 0.02)!).toBeLessThan(0);
  });
});
