import { SentimentEngine } from './sentiment.engine';

describe('SentimentEngine', () => {
  const sut = new SentimentEngine();

  it('scores a text to a label and a score that agree', () => {
    const result = sut.score('The lender swung to a net loss as loan losses mounted.');
    expect(result.sentiment).toBe('negative');
    expect(result.sentimentScore).toBeLessThanOrEqual(-0.1);
    expect(result.sentimentScore).toBeGreaterThanOrEqual(-1);
  });

  it('scores empty and whitespace-only text as neutral 0', () => {
    expect(sut.score('')).toEqual({ sentiment: 'neutral', sentimentScore: 0 });
    expect(sut.score('  \n ')).toEqual({ sentiment: 'neutral', sentimentScore: 0 });
  });

  it('scores an article from its title and description, with or without a description', () => {
    expect(sut.scoreArticle('Telecom operator raises its dividend')).toEqual(
      sut.scoreArticle('Telecom operator raises its dividend', null),
    );
    expect(sut.scoreArticle('Telecom operator raises its dividend').sentiment).toBe('positive');
    const described = sut.scoreArticle('Telecom operator reports results', 'Operating profit fell 14 %.');
    expect(described.sentiment).toBe('negative');
  });

  it('is deterministic', () => {
    const text = 'Orders rose 9 %, but the company warned of weaker margins.';
    expect(sut.score(text)).toEqual(sut.score(text));
  });
});
