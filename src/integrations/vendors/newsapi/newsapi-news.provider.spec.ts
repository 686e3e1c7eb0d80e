import { HttpService } from '@nestjs/axios';
import axios from 'axios';
import { newsFixture } from '../../../../test/fixtures/news/news-fixture';
import { VendorFixtureServer } from '../../../../test/fakes/fake-vendor-server';
import { ProviderResponseError, VendorUnavailableError } from '../provider-errors';
import { NewsApiNewsProvider } from './newsapi-news.provider';

describe('NewsApiNewsProvider', () => {
  let server: VendorFixtureServer;
  let sut: NewsApiNewsProvider;
  const companyNames: Record<string, string> = { AAPL: 'Apple Inc.' };

  beforeAll(async () => {
    server = await VendorFixtureServer.start(() => ({ status: 500 }));
  });
  afterAll(() => server.close());

  beforeEach(() => {
    server.requests.length = 0;
    sut = new NewsApiNewsProvider(new HttpService(axios.create({ timeout: 500 })), {
      apiKey: 'test-key',
      baseUrl: server.url,
      companyName: (symbol) => Promise.resolve(companyNames[symbol] ?? null),
    });
  });

  it('reads US business top headlines with the key in X-Api-Key, dropping removed articles', async () => {
    server.route = () => ({ fixture: newsFixture('newsapi/top-headlines-business.json') });
    expect(await sut.latest({}, 10)).toEqual([
      {
        title: 'Nvidia beats quarterly revenue estimates on strong data center demand - Reuters',
        description:
          'Nvidia reported third-quarter revenue above Wall Street estimates on Wednesday, as demand for its data center chips remained strong.',
        url: 'https://www.reuters.com/technology/nvidia-beats-quarterly-revenue-estimates-2026-11-19/',
        source: 'Reuters',
        publishedAt: '2026-11-19T21:35:12.000Z',
      },
      {
        title: 'Target shares plunge after retailer cuts full-year profit outlook',
        description: '',
        url: 'https://www.cnbc.com/2026/11/19/target-earnings-q3-2026.html',
        source: 'CNBC',
        publishedAt: '2026-11-19T14:05:44.000Z',
      },
      {
        title: 'Oil Prices Hold Steady as Traders Weigh Supply Outlook',
        description: 'Brent crude traded near $74 a barrel as investors assessed OPEC+ output plans.',
        url: 'https://www.wsj.com/finance/commodities-futures/oil-prices-hold-steady-2026-11-19',
        source: 'The Wall Street Journal',
        publishedAt: '2026-11-19T16:20:00.000Z',
      },
    ]);
    const [request] = server.requests;
    expect(request.path).toBe('/v2/top-headlines');
    expect(Object.fromEntries(request.query)).toEqual({
      country: 'us',
      category: 'business',
      pageSize: '10',
    });
    expect(request.headers['x-api-key']).toBe('test-key');
  });

  it('asks /everything for a symbol by ticker or company name, with keywords and the window', async () => {
    server.route = () => ({ fixture: newsFixture('newsapi/everything-apple.json') });
    const articles = await sut.latest(
      {
        symbol: 'AAPL',
        keywords: 'dividend, iphone sales',
        from: '2026-11-16T00:00:00.000Z',
        to: '2026-11-20T23:59:59.999Z',
      },
      50,
    );
    expect(articles.map((article) => article.source)).toEqual(['Bloomberg', 'MarketWatch']);
    const [request] = server.requests;
    expect(request.path).toBe('/v2/everything');
    expect(Object.fromEntries(request.query)).toEqual({
      q: '(AAPL OR "Apple Inc.") AND ((dividend) OR (iphone AND sales))',
      language: 'en',
      sortBy: 'publishedAt',
      pageSize: '50',
      from: '2026-11-16T00:00:00.000Z',
      to: '2026-11-20T23:59:59.999Z',
    });
  });

  it('asks for the bare ticker when the company is unknown', async () => {
    server.route = () => ({ fixture: newsFixture('newsapi/everything-apple.json') });
    await sut.latest({ symbol: 'ZZZZ' }, 5);
    expect(server.requests[0].query.get('q')).toBe('(ZZZZ)');
  });

  it('searches /everything newest first', async () => {
    server.route = () => ({ fixture: newsFixture('newsapi/everything-apple.json') });
    const articles = await sut.search('apple dividend', 10);
    expect(articles[0].title).toBe('Apple Raises Dividend and Expands Buyback After Record iPhone Sales');
    expect(Object.fromEntries(server.requests[0].query)).toEqual({
      q: 'apple dividend',
      language: 'en',
      sortBy: 'publishedAt',
      pageSize: '10',
    });
  });

  it('reports an invalid key as a non-retryable failure', async () => {
    server.route = () => ({ status: 401, fixture: newsFixture('newsapi/error-api-key-invalid.json') });
    await expect(sut.latest({}, 10)).rejects.toBeInstanceOf(ProviderResponseError);
  });

  it('respects HTTP 429 with its Retry-After, and a minute without one', async () => {
    server.route = () => ({
      status: 429,
      fixture: newsFixture('newsapi/error-rate-limited.json'),
      headers: { 'retry-after': '30' },
    });
    await expect(sut.search('apple', 10)).rejects.toMatchObject({ rateLimited: true, retryAfterMs: 30_000 });
    server.route = () => ({ status: 429, fixture: newsFixture('newsapi/error-rate-limited.json') });
    await expect(sut.search('apple', 10)).rejects.toMatchObject({ retryAfterMs: 60_000 });
  });

  it('treats a rateLimited code under another status as a rate limit', async () => {
    server.route = () => ({ status: 200, fixture: newsFixture('newsapi/error-rate-limited.json') });
    const failure = await sut.search('apple', 10).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(VendorUnavailableError);
    expect(failure).toMatchObject({ rateLimited: true });
  });

  it('reports a refused parameter with its code', async () => {
    server.route = () => ({ status: 400, fixture: newsFixture('newsapi/error-parameter-invalid.json') });
    await expect(sut.latest({ keywords: 'oil', from: '2025-01-01T00:00:00.000Z' }, 10)).rejects.toThrow(
      /newsapi: HTTP 400 parameterInvalid/,
    );
  });

  it('reports a server error and a timeout as retryable', async () => {
    server.route = () => ({ status: 503, body: 'unavailable' });
    await expect(sut.latest({}, 10)).rejects.toBeInstanceOf(VendorUnavailableError);
    server.route = () => ({ fixture: newsFixture('newsapi/everything-apple.json'), delayMs: 1_000 });
    await expect(sut.search('apple', 10)).rejects.toBeInstanceOf(VendorUnavailableError);
  });
});
