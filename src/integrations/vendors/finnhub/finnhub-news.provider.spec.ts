import { HttpService } from '@nestjs/axios';
import axios from 'axios';
import { newsFixture } from '../../../../test/fixtures/news/news-fixture';
import { VendorFixtureServer } from '../../../../test/fakes/fake-vendor-server';
import { ProviderResponseError } from '../provider-errors';
import { FinnhubNewsProvider } from './finnhub-news.provider';

describe('FinnhubNewsProvider', () => {
  let server: VendorFixtureServer;
  let sut: FinnhubNewsProvider;
  const now = new Date('2026-11-20T22:00:00Z');

  beforeAll(async () => {
    server = await VendorFixtureServer.start(() => ({ status: 500 }));
  });
  afterAll(() => server.close());

  beforeEach(() => {
    server.requests.length = 0;
    sut = new FinnhubNewsProvider(
      new HttpService(axios.create({ timeout: 500 })),
      { apiKey: 'test-token', baseUrl: server.url },
      () => now,
    );
  });

  it('reads general news newest first with the token in X-Finnhub-Token, skipping empty entries', async () => {
    server.route = () => ({ fixture: newsFixture('finnhub/news-general.json') });
    expect(await sut.latest({}, 10)).toEqual([
      {
        title: 'Stocks close higher as chipmakers rally on upbeat outlook',
        description:
          'Semiconductor shares led the market higher after strong guidance from several chipmakers lifted the Nasdaq.',
        url: 'https://www.cnbc.com/2026/11/20/stock-market-today.html',
        source: 'CNBC',
        publishedAt: '2026-11-20T20:00:00.000Z',
      },
      {
        title: 'Boeing to cut 10% of workforce as losses widen',
        description:
          'Boeing said it would lay off about 17,000 employees after its quarterly loss widened and deliveries slumped.',
        url: 'https://www.reuters.com/business/aerospace-defense/boeing-cut-workforce-2026-11-20/',
        source: 'Reuters',
        publishedAt: '2026-11-20T16:30:00.000Z',
      },
      {
        title: 'Treasury yields little changed ahead of Fed minutes',
        description: '',
        url: 'https://www.marketwatch.com/story/treasury-yields-2026-11-20',
        source: 'MarketWatch',
        publishedAt: '2026-11-20T14:30:00.000Z',
      },
    ]);
    const [request] = server.requests;
    expect(request.path).toBe('/api/v1/news');
    expect(request.query.get('category')).toBe('general');
    expect(request.headers['x-finnhub-token']).toBe('test-token');
  });

  it('filters general news by keywords and cuts to the limit', async () => {
    server.route = () => ({ fixture: newsFixture('finnhub/news-general.json') });
    expect((await sut.latest({ keywords: 'boeing, treasury' }, 10)).map((article) => article.source)).toEqual(
      ['Reuters', 'MarketWatch'],
    );
    expect(await sut.latest({}, 1)).toHaveLength(1);
  });

  it('reads company news over the last week in New York dates, or the asked window', async () => {
    server.route = () => ({ fixture: newsFixture('finnhub/company-news-aapl.json') });
    const articles = await sut.latest({ symbol: 'AAPL' }, 10);
    expect(articles.map((article) => article.publishedAt)).toEqual([
      '2026-11-20T21:00:00.000Z',
      '2026-11-20T07:00:00.000Z',
    ]);
    expect(server.requests[0].path).toBe('/api/v1/company-news');
    expect(Object.fromEntries(server.requests[0].query)).toEqual({
      symbol: 'AAPL',
      from: '2026-11-13',
      to: '2026-11-20',
    });
    await sut.latest(
      { symbol: 'AAPL', from: '2026-11-02T00:00:00.000Z', to: '2026-11-06T23:59:59.999Z' },
      10,
    );
    expect(Object.fromEntries(server.requests[1].query)).toEqual({
      symbol: 'AAPL',
      from: '2026-11-01',
      to: '2026-11-06',
    });
  });

  it('searches the general news on our side (Finnhub has no news search)', async () => {
    server.route = () => ({ fixture: newsFixture('finnhub/news-general.json') });
    const found = await sut.search('chipmakers nasdaq', 10);
    expect(found.map((article) => article.source)).toEqual(['CNBC']);
    expect(await sut.search('zzzyzzx', 10)).toEqual([]);
  });

  it('sums social sentiment over the window, weighting scores by mentions', async () => {
    server.route = () => ({ fixture: newsFixture('finnhub/social-sentiment-gme.json') });
    expect(await sut.socialSentiment('GME', '2026-11-13', '2026-11-20')).toEqual({
      symbol: 'GME',
      mentions: 40,
      positiveMentions: 22,
      negativeMentions: 13,
      score: (0.5 * 30 - 0.3 * 10) / 40,
      from: '2026-11-18T14:00:00.000Z',
      to: '2026-11-19T15:00:00.000Z',
    });
    expect(server.requests[0].path).toBe('/api/v1/stock/social-sentiment');
    expect(Object.fromEntries(server.requests[0].query)).toEqual({
      symbol: 'GME',
      from: '2026-11-13',
      to: '2026-11-20',
    });
  });

  it('reports no mentions as a zero score', async () => {
    server.route = () => ({ fixture: newsFixture('finnhub/social-sentiment-empty.json') });
    expect(await sut.socialSentiment('ZZZZ', '2026-11-13', '2026-11-20')).toMatchObject({
      mentions: 0,
      score: 0,
      from: null,
      to: null,
    });
  });

  it('respects HTTP 429 with its Retry-After', async () => {
    server.route = () => ({
      status: 429,
      fixture: newsFixture('finnhub/rate-limit.json'),
      headers: { 'retry-after': '5' },
    });
    await expect(sut.latest({}, 10)).rejects.toMatchObject({ rateLimited: true, retryAfterMs: 5_000 });
  });

  it('reports an invalid key and a plan without access as non-retryable', async () => {
    server.route = () => ({ status: 401, fixture: newsFixture('finnhub/invalid-key.json') });
    await expect(sut.search('apple', 10)).rejects.toBeInstanceOf(ProviderResponseError);
    server.route = () => ({ status: 403, fixture: newsFixture('finnhub/no-access.json') });
    await expect(sut.socialSentiment('GME', '2026-11-13', '2026-11-20')).rejects.toBeInstanceOf(
      ProviderResponseError,
    );
  });

  it('refuses a payload that is not a news list', async () => {
    server.route = () => ({ fixture: newsFixture('finnhub/invalid-key.json') });
    await expect(sut.latest({}, 10)).rejects.toThrow('finnhub: news is not a list');
  });
});
