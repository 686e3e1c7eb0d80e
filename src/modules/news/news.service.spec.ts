import { createCache } from 'cache-manager';
import { newsConfig } from '../../config/news.config';
import {
  NewsProvider,
  ProviderArticle,
  ProviderCallGateway,
  VendorUnavailableError,
} from '../../integrations/vendors';
import { FakeClock } from '../../../test/fakes/clock';
import { NewsClient } from './news.client';
import { NewsService } from './news.service';
import { MarketWire } from './providers/replay/market-wire.service';
import { ReplayService } from '../replay';
import { SentimentEngine } from './sentiment/sentiment.engine';

/** A local provider answering from a fixed list, or failing like the replay data would. */
class ListProvider extends NewsProvider {
  readonly name = 'replay';
  readonly configurationVariable = 'NEWS_PROVIDER';
  readonly local = true;
  failure: Error | null = null;

  constructor(private readonly articles: ProviderArticle[]) {
    super();
  }

  latest(): Promise<ProviderArticle[]> {
    return this.failure ? Promise.reject(this.failure) : Promise.resolve(this.articles);
  }

  search(): Promise<ProviderArticle[]> {
    return this.latest();
  }
}

const article = (
  title: string,
  publishedAt: string,
  url = `https://example.com/${publishedAt}`,
): ProviderArticle => ({
  title,
  description: '',
  url,
  source: 'Example Wire',
  publishedAt,
});

describe('NewsService', () => {
  const time = new FakeClock('2026-11-20T22:00:00Z');
  const engine = new SentimentEngine();
  const config = newsConfig();
  const wire = new MarketWire(new ReplayService(time), time, config);
  let provider: ListProvider;
  let sut: NewsService;
  const gateway = () =>
    new ProviderCallGateway(createCache(), time, time, { maxRateLimitWaitMs: 0, maxRateLimitRetries: 0 });

  beforeEach(() => {
    provider = new ListProvider([
      article('Profit rose sharply, beating estimates', '2026-11-19T10:00:00.000Z'),
      article('Profit fell sharply and the company warned of layoffs', '2026-11-20T10:00:00.000Z'),
      article('The annual meeting is on Tuesday', '2026-11-18T10:00:00.000Z'),
      article('Profit rose sharply, beating estimates', '2026-11-19T10:00:00.000Z'),
    ]);
    const client = new NewsClient(provider, gateway(), config);
    sut = new NewsService(client, wire, engine);
  });

  it('orders newest first, drops repeated urls and scores each article', async () => {
    const items = await sut.latest({}, 10);
    expect(items.map((item) => [item.publishedAt, item.sentiment])).toEqual([
      ['2026-11-20T10:00:00.000Z', 'negative'],
      ['2026-11-19T10:00:00.000Z', 'positive'],
      ['2026-11-18T10:00:00.000Z', 'neutral'],
    ]);
    expect(items[1]).toEqual({
      ...article('Profit rose sharply, beating estimates', '2026-11-19T10:00:00.000Z'),
      ...engine.scoreArticle('Profit rose sharply, beating estimates', ''),
    });
  });

  it('scores only the articles that make the page', async () => {
    const scoring = jest.spyOn(engine, 'scoreArticle');
    try {
      const items = await sut.latest({}, 1);
      expect(items.map((item) => [item.publishedAt, item.sentiment])).toEqual([
        ['2026-11-20T10:00:00.000Z', 'negative'],
      ]);
      expect(scoring.mock.calls).toEqual([['Profit fell sharply and the company warned of layoffs', '']]);
    } finally {
      scoring.mockRestore();
    }
  });

  it('keeps the page of a frozen pool: asked again, the same items, not scored again', async () => {
    const frozenPool = new ListProvider(
      Object.freeze([
        article('Profit rose sharply, beating estimates', '2026-11-19T10:00:00.000Z'),
        article('The annual meeting is on Tuesday', '2026-11-18T10:00:00.000Z'),
      ]) as ProviderArticle[],
    );
    const service = new NewsService(new NewsClient(frozenPool, gateway(), config), wire, engine);
    const first = await service.latest({}, 10);
    const scoring = jest.spyOn(engine, 'scoreArticle');
    try {
      const again = await service.latest({}, 10);
      expect(again).toBe(first);
      expect(Object.isFrozen(again)).toBe(true);
      expect(scoring).not.toHaveBeenCalled();
      expect((await service.latest({ sentiment: 'neutral' }, 10)).map((item) => item.sentiment)).toEqual([
        'neutral',
      ]);
    } finally {
      scoring.mockRestore();
    }
  });

  it('filters by sentiment and window before cutting to the limit', async () => {
    expect((await sut.latest({ sentiment: 'neutral' }, 1)).map((item) => item.title)).toEqual([
      'The annual meeting is on Tuesday',
    ]);
    expect(
      (await sut.latest({ from: '2026-11-19', to: '2026-11-19' }, 10)).map((item) => item.publishedAt),
    ).toEqual(['2026-11-19T10:00:00.000Z']);
  });

  it('refuses a window that ends before it starts', async () => {
    await expect(sut.latest({ from: '2026-11-20', to: '2026-11-19T23:00:00Z' }, 10)).rejects.toMatchObject({
      kind: 'invalid-input',
      problems: [{ path: ['from'], message: 'from must not be after to' }],
    });
  });

  it('names the provider variable when the replay fails', async () => {
    provider.failure = new VendorUnavailableError('replay', 'data file unreadable');
    await expect(sut.latest({}, 10)).rejects.toMatchObject({
      kind: 'provider-unavailable',
      detail: 'Failed to retrieve news. Check the NEWS_PROVIDER configuration',
    });
    await expect(sut.search('profit', 10)).rejects.toMatchObject({
      kind: 'provider-unavailable',
      detail: 'Failed to search news. Check the NEWS_PROVIDER configuration',
    });
  });

  it('answers 404 for an id that is no wire story', async () => {
    await expect(sut.item('20261120-gainer-zzzz')).rejects.toMatchObject({
      kind: 'not-found',
      detail: 'News item not found',
    });
  });

  it('answers the wire stories published after an instant, newest first, as the whole list would', async () => {
    const all = await sut.recentMentions();
    const after = all[Math.floor(all.length / 3)].publishedAt;
    expect(all.length).toBeGreaterThan(10);
    expect(await sut.recentMentions(after)).toEqual(all.filter((item) => item.publishedAt > after));
    expect(await sut.recentMentions(all[0].publishedAt)).toEqual([]);
  });

  it('scores the whole recent wire at a first look without holding the event loop 100 ms at a time', async () => {
    const replay = new ReplayService(time);
    const fullWire = new MarketWire(replay, time, config);
    const stories = await fullWire.recentStories();
    const service = new NewsService(new NewsClient(provider, gateway(), config), fullWire, engine);

    const { result: mentions, stallMs } = await longestStall(() => service.recentMentions());

    expect(stories.length).toBeGreaterThan(2_000);
    expect(mentions).toEqual(
      stories.map(({ url, title, description, publishedAt, symbols }) => ({
        url,
        title,
        publishedAt,
        ...engine.scoreArticle(title, description),
        symbols,
      })),
    );
    expect(stallMs).toBeLessThanOrEqual(100);
  });
});

/** `work`'s answer, and the longest the event loop went without running a timer while it ran. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let lastTick = performance.now();
  let longest = 0;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - lastTick);
    lastTick = now;
  };
  const ticker = setInterval(tick, 1);
  try {
    const result = await work();
    tick();
    return { result, stallMs: longest };
  } finally {
    clearInterval(ticker);
  }
}
