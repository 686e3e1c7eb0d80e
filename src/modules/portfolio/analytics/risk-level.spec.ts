import { assessRiskLevel, compareWithRiskTolerance } from './risk-level';

describe('assessRiskLevel', () => {
  const diversified = { largestWeight: { symbol: 'AAPL', weight: 0.08 }, effectiveHoldings: 15 };

  it.each([
    [0.1, 'conservative'],
    [0.12, 'moderate'],
    [0.19, 'moderate'],
    [0.2, 'aggressive'],
  ])('volatility %p in a diversified portfolio is %p', (volatility, expected) => {
    expect(assessRiskLevel({ ...diversified, volatility }).riskLevel).toBe(expected);
  });

  it('takes the higher of the volatility and concentration levels', () => {
    expect(
      assessRiskLevel({
        volatility: 0.1,
        largestWeight: { symbol: 'AAPL', weight: 0.45 },
        effectiveHoldings: 15,
      }).riskLevel,
    ).toBe('aggressive');
    expect(
      assessRiskLevel({
        volatility: 0.1,
        largestWeight: { symbol: 'AAPL', weight: 0.2 },
        effectiveHoldings: 6,
      }).riskLevel,
    ).toBe('moderate');
    expect(
      assessRiskLevel({
        volatility: 0.1,
        largestWeight: { symbol: 'AAPL', weight: 0.3 },
        effectiveHoldings: 3.9,
      }).riskLevel,
    ).toBe('aggressive');
  });

  it('explains every dimension in notes', () => {
    const sut = assessRiskLevel({
      volatility: 0.153,
      largestWeight: { symbol: 'MSFT', weight: 0.25 },
      effectiveHoldings: 8,
    });
    expect(sut.notes).toEqual([
      'Annualised volatility of 15.3% is moderate (moderate from 12%, aggressive from 20%).',
      'Largest holding MSFT is 25.0% of the portfolio (moderate; moderate above 20%, aggressive above 40%).',
      'Effective number of holdings is 8.0 (moderate; moderate below 10, aggressive below 4).',
    ]);
  });

  it('falls back to concentration when volatility is unknown, and says so', () => {
    const sut = assessRiskLevel({ ...diversified, volatility: null });
    expect(sut.riskLevel).toBe('conservative');
    expect(sut.notes[0]).toMatch(/could not be measured/);
  });
});

describe('compareWithRiskTolerance', () => {
  it('matches equal levels and says how unequal ones compare', () => {
    expect(compareWithRiskTolerance('moderate', 'moderate').matches).toBe(true);
    expect(compareWithRiskTolerance('aggressive', 'conservative')).toEqual({
      matches: false,
      note: 'The aggressive risk level is above your conservative risk tolerance.',
    });
    expect(compareWithRiskTolerance('conservative', 'moderate').note).toContain('below');
  });
});
