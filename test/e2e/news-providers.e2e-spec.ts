import { Clock } from '../../src/common/time/clock';
import { FakeClock } from '../fakes/clock';
import { SentimentEngine } from '../../src/modules/news/sentiment/sentiment.engine';
import { registerUser, TestUser } from '../factories/users.factory';
import { VendorFixtureServer } from '../fakes/fake-vendor-server';
import { newsFixture } from '../fixtures/news/news-fixture';
import { createTestApp, TestApp } from '../setup/test-app';
import { dataOf, typedApi } from '../support/typed-api';

// The vendors are recorded fixtures served locally; caching is off so each test sees its route.
const NO_CACHE = {
  NEWS_CACHE_TTL_SECONDS: '0',
  NEWS_SEARCH_CACHE_TTL_SECONDS: '0',
  NEWS_MIN_INTERVAL_MS: '0',
};
const engine = new SentimentEngine();

describe('news from NewsAPI (NEWS_PROVIDER=newsapi)', () => {
  let vendor: VendorFixtureServer;
  let sut: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    vendor = await VendorFixtureServer.start(() => ({ status: 500 }));
    sut = await createTestApp({
      env: { ...NO_CACHE, NEWS_PROVIDER: 'newsapi', NEWS_API_KEY: 'test-key', NEWS_API_BASE_URL: vendor.url },
      override: (builder) => builder.overrideProvider(Clock).useValue(new FakeClock('2026-11-20T22:00:00Z')),
    });
    user = await registerUser(sut);
  });
  afterAll(async () => {
    await sut.close();
    await vendor.close();
  });
  beforeEach(() => (vendor.requests.length = 0));

  // Raw: the refused-key table loops over the routes by path.
  const get = (url: string) => sut.inject({ url: `/api/v1/${url}`, headers: user.headers });
  const api = () => typedApi(sut, user);

  it('serves the headlines newest first with the sentiment our engine computed', async () => {
    vendor.route = () => ({ fixture: newsFixture('newsapi/top-headlines-business.json') });
    const response = await api().GET('/api/v1/market/news', { params: { query: { limit: 2 } } });
    expect(response.response.status).toBe(200);
    const title = 'Nvidia beats quarterly revenue estimates on strong data center demand - Reuters';
    const description =
      'Nvidia reported third-quarter revenue above Wall Street estimates on Wednesday, as demand for its data center chips remained strong.';
    expect(dataOf(response)).toEqual([
      {
        title,
        description,
        url: 'https://www.reuters.com/technology/nvidia-beats-quarterly-revenue-estimates-2026-11-19/',
        source: 'Reuters',
        publishedAt: '2026-11-19T21:35:12.000Z',
        ...engine.scoreArticle(title, description),
      },
      expect.objectContaining({ source: 'The Wall Street Journal', publishedAt: '2026-11-19T16:20:00.000Z' }),
    ]);
    expect(dataOf(response)[0].sentiment).toBe('positive');
  });

  it('asks for stock news by ticker and company name', async () => {
    vendor.route = () => ({ fixture: newsFixture('newsapi/everything-apple.json') });
    const response = await api().GET('/api/v1/news/stock/{symbol}', {
      params: { path: { symbol: 'aapl' }, query: { limit: 1 } },
    });
    expect(response.response.status).toBe(200);
    expect(dataOf(response)).toHaveLength(1);
    expect(vendor.requests[0].query.get('q')).toBe('(AAPL OR "Apple Inc.")');
  });

  it('filters by sentiment on our side', async () => {
    vendor.route = () => ({ fixture: newsFixture('newsapi/everything-apple.json') });
    const response = await api().GET('/api/v1/news', {
      params: { query: { keywords: 'apple', sentiment: 'negative' } },
    });
    expect(response.response.status).toBe(200);
    expect(dataOf(response).map((item: { source: string }) => item.source)).toEqual(['MarketWatch']);
  });

  it.each([
    ['market/news', 'Failed to retrieve news. Check the NEWS_API_KEY configuration'],
    ['market/news/stock/AAPL', 'Failed to retrieve news. Check the NEWS_API_KEY configuration'],
    ['market/news/search?query=apple', 'Failed to search news. Check the NEWS_API_KEY configuration'],
    ['news', 'Failed to retrieve news. Check the NEWS_API_KEY configuration'],
    ['news/stock/AAPL', 'Failed to retrieve news. Check the NEWS_API_KEY configuration'],
    ['news/search?query=apple', 'Failed to search news. Check the NEWS_API_KEY configuration'],
  ])('answers GET %s with 500 when the key is refused', async (url, detail) => {
    vendor.route = () => ({ status: 401, fixture: newsFixture('newsapi/error-api-key-invalid.json') });
    const response = await get(url);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail });
  });

  it('still serves wire items by their url', async () => {
    const response = await api().GET('/api/v1/news/items/{id}', {
      params: { path: { id: '20261120-gainer-mlm' } },
    });
    expect(response.response.status).toBe(200);
    expect(dataOf(response).source).toBe('Market Replay Wire');
  });

  it('answers 500 when rate limited, without waiting out a long back-off', async () => {
    vendor.route = () => ({
      status: 429,
      fixture: newsFixture('newsapi/error-rate-limited.json'),
      headers: { 'retry-after': '3600' },
    });
    const response = await api().GET('/api/v1/news/search', { params: { query: { query: 'oil' } } });
    expect(response.response.status).toBe(500);
    expect(response.error).toEqual({
      detail: 'Failed to search news. Check the NEWS_API_KEY configuration',
    });
  });
});

describe('news and social sentiment from Finnhub (NEWS_PROVIDER=finnhub)', () => {
  let vendor: VendorFixtureServer;
  let sut: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    vendor = await VendorFixtureServer.start(() => ({ status: 500 }));
    sut = await createTestApp({
      env: {
        ...NO_CACHE,
        NEWS_PROVIDER: 'finnhub',
        FINNHUB_API_KEY: 'test-token',
        FINNHUB_BASE_URL: vendor.url,
      },
      override: (builder) => builder.overrideProvider(Clock).useValue(new FakeClock('2026-11-20T22:00:00Z')),
    });
    user = await registerUser(sut);
  });
  afterAll(async () => {
    await sut.close();
    await vendor.close();
  });

  const api = () => typedApi(sut, user);

  it('serves company news with engine sentiment', async () => {
    vendor.route = () => ({ fixture: newsFixture('finnhub/company-news-aapl.json') });
    const response = await api().GET('/api/v1/market/news/stock/{symbol}', {
      params: { path: { symbol: 'AAPL' } },
    });
    expect(response.response.status).toBe(200);
    expect(
      dataOf(response).map((item: { title: string; sentiment: string }) => [item.title, item.sentiment]),
    ).toEqual([
      ['Apple supplier warns of weaker orders', 'negative'],
      ['Apple shares rise after analysts upgrade the stock on services growth', 'positive'],
    ]);
  });

  it('searches the general news', async () => {
    vendor.route = () => ({ fixture: newsFixture('finnhub/news-general.json') });
    const response = await api().GET('/api/v1/news/search', { params: { query: { query: 'boeing' } } });
    expect(response.response.status).toBe(200);
    expect(dataOf(response)).toEqual([expect.objectContaining({ source: 'Reuters', sentiment: 'negative' })]);
  });

  it('names FINNHUB_API_KEY when Finnhub refuses the key', async () => {
    vendor.route = () => ({ status: 401, fixture: newsFixture('finnhub/invalid-key.json') });
    const latest = await api().GET('/api/v1/news');
    expect(latest.response.status).toBe(500);
    expect(latest.error).toEqual({
      detail: 'Failed to retrieve news. Check the FINNHUB_API_KEY configuration',
    });
    const search = await api().GET('/api/v1/market/news/search', { params: { query: { query: 'apple' } } });
    expect(search.error).toEqual({
      detail: 'Failed to search news. Check the FINNHUB_API_KEY configuration',
    });
  });

  it('reports social sentiment of the last 7 days', async () => {
    vendor.route = () => ({ fixture: newsFixture('finnhub/social-sentiment-gme.json') });
    const response = await api().GET('/api/v1/news/social/{symbol}', { params: { path: { symbol: 'gme' } } });
    expect(response.response.status).toBe(200);
    expect(dataOf(response)).toEqual({
      symbol: 'GME',
      mentions: 40,
      positiveMentions: 22,
      negativeMentions: 13,
      score: 0.3,
      sentiment: 'positive',
      from: '2026-11-18T14:00:00.000Z',
      to: '2026-11-19T15:00:00.000Z',
    });
    expect(Object.fromEntries(vendor.requests.at(-1)!.query)).toEqual({
      symbol: 'GME',
      from: '2026-11-13',
      to: '2026-11-20',
    });
  });

  it('answers 500 naming FINNHUB_API_KEY when social sentiment fails', async () => {
    vendor.route = () => ({ status: 403, fixture: newsFixture('finnhub/no-access.json') });
    const response = await api().GET('/api/v1/news/social/{symbol}', { params: { path: { symbol: 'GME' } } });
    expect(response.response.status).toBe(500);
    expect(response.error).toEqual({
      detail: 'Failed to retrieve social sentiment. Check the FINNHUB_API_KEY configuration',
    });
  });
});
