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
  });

  it("adds a description's evidence to its title's", () => {
    const title = 'Apple faces EU antitrust fine over App Store rules';
    const description = 'The European Commission fined Apple for breaching competition rules.';
    expect(sut.scoreArticle(title, description).sentimentScore).toBeLessThan(sut.score(title).sentimentScore);
    expect(sut.scoreArticle(' ', description)).toEqual(sut.score(description));
  });

  it('reads analyst actions and signed moves (the rules alone score the second 0)', () => {
    expect(sut.score('Nike upgraded to Buy at Deutsche Bank').sentiment).toBe('positive');
    expect(sut.score('$XYZ -11% after profit view slashed').sentiment).toBe('negative');
  });

  it('explains a score by at most the number of features asked for, strongest first', () => {
    const explanation = sut.explain('Nike upgraded to Buy at Deutsche Bank', 5);
    expect(explanation).toHaveLength(5);
    const sizes = explanation.map(({ contribution }) => Math.abs(contribution));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(explanation.map(({ feature }) => feature)).toContain('rule evidence: upgraded+');
    expect(sut.explain('   ', 5)).toEqual([]);
  });

  it('is deterministic', () => {
    const text = 'Orders rose 9 %, but the company warned of weaker margins.';
    expect(sut.score(text)).toEqual(sut.score(text));
  });
});
