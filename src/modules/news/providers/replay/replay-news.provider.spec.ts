import { MarketWire } from './market-wire.service';
import { WIRE_SOURCE, WireStory } from './market-wire';
import { ReplayNewsProvider } from './replay-news.provider';

function story(id: number, symbols: string[], featured = false): WireStory {
  return {
    id: `20261120-brief-${id}`,
    title: `Story ${id}`,
    description: `About ${symbols.join(' and ')}`,
    source: WIRE_SOURCE,
    url: `http://localhost/wire/${id}`,
    publishedAt: `2026-11-20T21:${String(59 - id).padStart(2, '0')}:00.000Z`,
    symbols,
    featured,
    searchText: `story ${id} ${symbols.join(' ').toLowerCase()}`,
  };
}

describe('ReplayNewsProvider.latest', () => {
  // Newest first, as the wire answers them.
  const stories = Object.freeze([
    story(1, ['AAPL', 'MSFT'], true),
    story(2, ['XOM']),
    story(3, ['AAPL']),
    story(4, ['AAPL', 'AAPL']),
    story(5, ['MSFT']),
  ]);
  let published: readonly WireStory[];
  let sut: ReplayNewsProvider;

  beforeEach(() => {
    published = stories;
    sut = new ReplayNewsProvider({ recentStories: async () => published } as unknown as MarketWire);
  });

  const ids = (articles: { url: string }[]) =>
    articles.map((article) => Number(article.url.split('/').pop()));

  it("answers a symbol's stories newest first, up to the limit and within the dates", async () => {
    expect(ids(await sut.latest({ symbol: 'AAPL' }, 10))).toEqual([1, 3, 4]);
    expect(ids(await sut.latest({ symbol: 'AAPL' }, 2))).toEqual([1, 3]);
    expect(ids(await sut.latest({ symbol: 'MSFT', to: stories[1].publishedAt }, 10))).toEqual([5]);
    expect(ids(await sut.latest({ symbol: 'NOPE' }, 10))).toEqual([]);
    expect(ids(await sut.latest({}, 10))).toEqual([1]);
  });

  it('indexes a frozen list once, and a new list of published stories anew', async () => {
    const symbolReads = jest.fn();
    published = Object.freeze(
      stories.map(
        (each) =>
          new Proxy(each, {
            get: (target, key) => (key === 'symbols' && symbolReads(), Reflect.get(target, key)),
          }),
      ),
    );
    await sut.latest({ symbol: 'AAPL' }, 10);
    await sut.latest({ symbol: 'MSFT' }, 10);
    expect(symbolReads).toHaveBeenCalledTimes(stories.length);

    published = Object.freeze([story(6, ['AAPL']), ...stories]);
    expect(ids(await sut.latest({ symbol: 'AAPL' }, 10))).toEqual([6, 1, 3, 4]);
  });

  it('hands back the same frozen answer while the wire holds, and picks anew once it publishes', async () => {
    const first = await sut.latest({ symbol: 'AAPL' }, 10);
    const again = await sut.latest({ symbol: 'AAPL' }, 10);
    expect(again).toBe(first);
    expect(Object.isFrozen(first) && first.every((article) => Object.isFrozen(article))).toBe(true);
    expect(ids(await sut.latest({ symbol: 'AAPL' }, 2))).toEqual([1, 3]);

    published = Object.freeze([story(6, ['AAPL']), ...stories]);
    const afterPublishing = await sut.latest({ symbol: 'AAPL' }, 10);
    expect(afterPublishing).not.toBe(first);
    expect(ids(afterPublishing)).toEqual([6, 1, 3, 4]);
  });
});
