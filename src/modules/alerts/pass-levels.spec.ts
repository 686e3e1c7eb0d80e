import { ANY_SENTIMENT } from './alert-rules.repository';
import { largestMove, newsLevels } from './pass-levels';

const item = (publishedAt: string, sentiment: string, sentimentScore: number) => ({
  title: 'A headline',
  url: `https://news.example/${publishedAt}`,
  source: 'Wire',
  publishedAt,
  sentiment,
  sentimentScore,
});

describe('pass levels', () => {
  it('news: the newest item and the strongest absolute score per sentiment and over all', () => {
    const levels = newsLevels('AAPL', [
      item('2026-11-18T15:00:00Z', 'positive', 0.4),
      item('2026-11-18T16:00:00Z', 'negative', -0.7),
      item('2026-11-18T14:00:00Z', 'positive', 0.6),
      item('not a date', 'neutral', 0.9),
    ]);

    expect(levels).toEqual(
      expect.arrayContaining([
        {
          symbol: 'AAPL',
          sentiment: ANY_SENTIMENT,
          latestMs: Date.parse('2026-11-18T16:00:00Z'),
          strongestScore: 0.7,
        },
        {
          symbol: 'AAPL',
          sentiment: 'positive',
          latestMs: Date.parse('2026-11-18T15:00:00Z'),
          strongestScore: 0.6,
        },
        {
          symbol: 'AAPL',
          sentiment: 'negative',
          latestMs: Date.parse('2026-11-18T16:00:00Z'),
          strongestScore: 0.7,
        },
      ]),
    );
    expect(levels).toHaveLength(3);
    expect(newsLevels('AAPL', [])).toEqual([]);
  });

  it('watchlist: the largest absolute move, none without a quote', () => {
    expect(largestMove([{ changePercent: 1.5 }, { changePercent: -3.25 }, { changePercent: 0 }])).toBe(3.25);
    expect(largestMove([])).toBeNull();
  });
});
