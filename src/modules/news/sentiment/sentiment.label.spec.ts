import { sentimentLabel, toSentimentResult } from './sentiment.label';

describe('sentimentLabel', () => {
  it.each([
    [1, 'positive'],
    [0.1, 'positive'],
    [0.0999, 'neutral'],
    [0, 'neutral'],
    [-0.0999, 'neutral'],
    [-0.1, 'negative'],
    [-1, 'negative'],
  ])('%d → %s (spec bands: ≥ 0.1 positive, ≤ -0.1 negative)', (score, expected) => {
    expect(sentimentLabel(score)).toBe(expected);
  });
});

describe('toSentimentResult', () => {
  it('rounds to 4 decimals and labels the rounded score, so the two always agree', () => {
    expect(toSentimentResult(0.09996)).toEqual({ sentiment: 'positive', sentimentScore: 0.1 });
    expect(toSentimentResult(-0.09996)).toEqual({ sentiment: 'negative', sentimentScore: -0.1 });
    expect(toSentimentResult(0.09994)).toEqual({ sentiment: 'neutral', sentimentScore: 0.0999 });
  });

  it('clamps to [-1, 1] and never returns -0', () => {
    expect(toSentimentResult(1.5).sentimentScore).toBe(1);
    expect(toSentimentResult(-3).sentimentScore).toBe(-1);
    expect(Object.is(toSentimentResult(-0.00001).sentimentScore, 0)).toBe(true);
  });
});
