import { Clock } from '../../src/common/time/clock';
import { FakeClock } from '../fakes/clock';
import { SentimentEngine } from '../../src/modules/news/sentiment/sentiment.engine';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { dataOf, issuesOf, QueryOf, typedApi } from '../support/typed-api';

// The replay maps Friday 2026-11-20 onto the real trading day 2016-02-09, whose biggest S&P 500
// gainer was Martin Marietta Materials (+9.36% to 128.88). Wire stories are filed from 16:01 to
// 16:45 New York time (21:01Z to 21:45Z in November), the market close last.
const FRIDAY_AFTER_CLOSE = '2026-11-20T22:00:00Z';
const NEWS_ITEM_FIELDS = [
  'description',
  'publishedAt',
  'sentiment',
  'sentimentScore',
  'source',
  'title',
  'url',
];

interface Item {
  title: string;
  description: string;
  url: string;
  source: string;
  publishedAt: string;
  sentiment: string;
  sentimentScore: number;
}

describe('news on the offline market wire (spec 4.2 news rows, 4.3)', () => {
  let sut: TestApp;
  let user: TestUser;
  const time = new FakeClock(FRIDAY_AFTER_CLOSE);
  const engine = new SentimentEngine();

  beforeAll(async () => {
    sut = await createTestApp({
      env: { NEWS_PROVIDER: '', NEWS_WIRE_BASE_URL: 'https://invest.example.com', FINNHUB_API_KEY: '' },
      override: (builder) => builder.overrideProvider(Clock).useValue(time),
    });
    user = await registerUser(sut);
  });
  afterAll(() => sut.close());
  beforeEach(() => time.set(FRIDAY_AFTER_CLOSE));

  // Raw: the queries the types forbid, and the trailing-slash route.
  const get = (url: string, headers: Record<string, string> = user.headers) =>
    sut.inject({ url: `/api/v1/${url}`, headers });
  const api = () => typedApi(sut, user);
  // Spec 4.2's routes under /market/news and 4.3's under /news answer alike.
  const latest = {
    'market/news': (query?: QueryOf<'/api/v1/market/news'>) =>
      api().GET('/api/v1/market/news', { params: { query } }),
    news: (query?: QueryOf<'/api/v1/news'>) => api().GET('/api/v1/news', { params: { query } }),
  };
  const search = {
    'market/news/search': (query: QueryOf<'/api/v1/market/news/search'>) =>
      api().GET('/api/v1/market/news/search', { params: { query } }),
    'news/search': (query: QueryOf<'/api/v1/news/search'>) =>
      api().GET('/api/v1/news/search', { params: { query } }),
  };
  const aboutStock = {
    'market/news/stock': (symbol: string, query?: QueryOf<'/api/v1/market/news/stock/{symbol}'>) =>
      api().GET('/api/v1/market/news/stock/{symbol}', { params: { path: { symbol }, query } }),
    'news/stock': (symbol: string, query?: QueryOf<'/api/v1/news/stock/{symbol}'>) =>
      api().GET('/api/v1/news/stock/{symbol}', { params: { path: { symbol }, query } }),
  };
  const story = (id: string) => api().GET('/api/v1/news/items/{id}', { params: { path: { id } } });
  /** The list an answer carries, which must be a 200. */
  const items = async (answer: Promise<{ response: Response; data?: Item[] }>) => {
    const response = await answer;
    expect(response.response.status).toBe(200);
    return dataOf(response);
  };
  const text = (item: Item) => `${item.title} ${item.description}`.toLowerCase();

  function expectWellFormed(list: Item[]): void {
    for (const item of list) {
      expect(Object.keys(item).sort()).toEqual(NEWS_ITEM_FIELDS);
      expect(item.source).toBe('Market Replay Wire');
      expect(item.url).toMatch(/^https:\/\/invest\.example\.com\/api\/v1\/news\/items\/\d{8}-[a-z0-9-]+$/);
      expect(item.publishedAt <= time.now().toISOString()).toBe(true);
      expect({ sentiment: item.sentiment, sentimentScore: item.sentimentScore }).toEqual(
        engine.scoreArticle(item.title, item.description),
      );
    }
    const times = list.map((item) => item.publishedAt);
    expect(times).toEqual([...times].sort().reverse());
  }

  it.each([
    ['GET', 'market/news'],
    ['GET', 'market/news/search?query=apple'],
    ['GET', 'market/news/stock/AAPL'],
    ['GET', 'news'],
    ['GET', 'news/search?query=apple'],
    ['GET', 'news/stock/AAPL'],
    ['GET', 'news/social/AAPL'],
    ['POST', 'news/sentiment'],
  ] as const)('answers 401 to %s %s without a token', async (method, url) => {
    const response = await sut.inject({
      method,
      url: `/api/v1/${url}`,
      payload: method === 'POST' ? { texts: ['x'] } : undefined,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'Could not validate credentials' });
  });

  describe.each(['market/news', 'news'] as const)('GET /api/v1/%s', (path) => {
    it('lists 10 featured wire stories by default, newest first, scored by the engine', async () => {
      const list = await items(latest[path]());
      expect(list).toHaveLength(10);
      expectWellFormed(list);
      expect(list[0].url).toBe('https://invest.example.com/api/v1/news/items/20261120-market-close');
      expect(list[0].publishedAt).toBe('2026-11-20T21:45:00.000Z');
      // Company closing briefs are not in the general feed.
      expect(list.some((item) => item.url.includes('-brief-'))).toBe(false);
    });

    it('is deterministic', async () => {
      expect(await items(latest[path]({ limit: 50 }))).toEqual(await items(latest[path]({ limit: 50 })));
    });

    it.each([
      ['1', 1],
      ['50', 50],
    ])('takes limit=%s', async (limit, length) => {
      expect(await items(latest[path]({ limit: Number(limit) }))).toHaveLength(length);
    });

    it.each([
      ['0', 'greater_than_equal', 'Input should be greater than or equal to 1'],
      ['51', 'less_than_equal', 'Input should be less than or equal to 50'],
      ['ten', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
      ['', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
    ])('refuses limit=%s with 422', async (limit, type, msg) => {
      // Raw: the limit as sent, a word and an empty value among them.
      const response = await get(`${path}?limit=${limit}`);
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toEqual([
        expect.objectContaining({ loc: ['query', 'limit'], type, msg }),
      ]);
    });

    it('filters by symbol, in any case, including the company closing briefs', async () => {
      const list = await items(latest[path]({ symbol: 'mlm', limit: 50 }));
      expectWellFormed(list);
      expect(list.map((item) => item.url.split('/').pop())).toEqual(
        expect.arrayContaining(['20261120-gainer-mlm', '20261120-brief-mlm', '20261116-brief-mlm']),
      );
      for (const item of list) expect(item.title + item.description).toMatch(/Martin Marietta|MLM/);
    });

    it('filters by keywords (comma-separated alternatives)', async () => {
      const energy = await items(latest[path]({ keywords: 'energy', limit: 50 }));
      expect(energy.length).toBeGreaterThan(0);
      for (const item of energy) expect(text(item)).toContain('energy');
      const either = await items(latest[path]({ keywords: 'viacom, hanesbrands', limit: 50 }));
      expect(either.some((item) => text(item).includes('viacom'))).toBe(true);
      expect(either.some((item) => text(item).includes('hanesbrands'))).toBe(true);
      for (const item of either) expect(text(item)).toMatch(/viacom|hanesbrands/);
    });

    it('answers an unknown symbol with an empty list', async () => {
      expect(await items(latest[path]({ symbol: 'ZZZZ' }))).toEqual([]);
    });

    it('refuses a malformed symbol with 422', async () => {
      const response = await latest[path]({ symbol: 'not a symbol!' });
      expect(response.response.status).toBe(422);
      expect(issuesOf(response)[0].loc).toEqual(['query', 'symbol']);
    });
  });

  describe('GET /api/v1/news/ filters of 4.3', () => {
    it.each(['positive', 'negative', 'neutral'])('filters sentiment=%s', async (sentiment) => {
      // Raw: the route as the spec writes it, with its trailing slash.
      const response = await get(`news/?sentiment=${sentiment}&limit=50`);
      expect(response.statusCode).toBe(200);
      const list = response.json<Item[]>();
      expect(list.length).toBeGreaterThan(0);
      for (const item of list) expect(item.sentiment).toBe(sentiment);
    });

    it('refuses an unknown sentiment with 422', async () => {
      // Raw: a sentiment outside the enum is what the types forbid.
      const response = await get('news?sentiment=bullish');
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          {
            loc: ['query', 'sentiment'],
            msg: "Input should be 'positive', 'negative' or 'neutral'",
            type: 'enum',
            ctx: { expected: "'positive', 'negative' or 'neutral'" },
          },
        ],
      });
    });

    it('filters by a from/to window of dates or instants', async () => {
      const thursday = await items(latest.news({ from: '2026-11-19', to: '2026-11-19', limit: 50 }));
      expect(thursday.length).toBeGreaterThan(10);
      for (const item of thursday) expect(item.publishedAt.slice(0, 10)).toBe('2026-11-19');
      const evening = await items(latest.news({ from: '2026-11-20T21:30:00Z', limit: 50 }));
      expect(evening.length).toBeGreaterThan(0);
      for (const item of evening) expect(item.publishedAt >= '2026-11-20T21:30:00.000Z').toBe(true);
      const earlier = await items(latest.news({ to: '2026-11-12', limit: 5 }));
      expect(earlier).toHaveLength(5);
      for (const item of earlier) expect(item.publishedAt <= '2026-11-12T23:59:59.999Z').toBe(true);
    });

    it('has no stories before the replay calendar starts (2024-01-01, a holiday: the first session is Jan 2)', async () => {
      expect(await items(latest.news({ to: '2023-12-31' }))).toEqual([]);
      expect(await items(latest.news({ to: '2024-01-01' }))).toEqual([]);
      const first = await items(latest.news({ to: '2024-01-02', limit: 50 }));
      expect(first.length).toBeGreaterThan(0);
      for (const item of first) expect(item.publishedAt.slice(0, 10)).toBe('2024-01-02');
      expect((await story('20231229-market-close')).response.status).toBe(404);
    });

    it('refuses a window whose from is after its to, and a malformed date', async () => {
      const reversed = await latest.news({ from: '2026-11-20', to: '2026-11-19' });
      expect(reversed.response.status).toBe(422);
      expect(issuesOf(reversed)).toEqual([
        expect.objectContaining({ loc: ['query', 'from'], type: 'value_error' }),
      ]);
      const malformed = await latest.news({ to: '2026-13-45' });
      expect(malformed.response.status).toBe(422);
      expect(issuesOf(malformed)).toEqual([
        expect.objectContaining({ loc: ['query', 'to'], type: 'datetime_parsing' }),
      ]);
    });
  });

  describe.each(['market/news/search', 'news/search'] as const)('GET /api/v1/%s', (path) => {
    it('finds stories naming the company, newest first', async () => {
      const list = await items(search[path]({ query: 'Martin Marietta' }));
      expect(list.length).toBeGreaterThan(0);
      expectWellFormed(list);
      for (const item of list) expect(text(item)).toContain('martin marietta');
    });

    it('finds by ticker', async () => {
      const list = await items(search[path]({ query: 'aapl', limit: 3 }));
      expect(list.map((item) => item.title)).toEqual([
        'Apple Inc. (AAPL) closes little changed at $94.99',
        'Apple Inc. (AAPL) rises 1.05% to $95.01',
        'Apple Inc. (AAPL) falls 2.67% to $94.02',
      ]);
    });

    it('answers a query nothing matches with an empty list', async () => {
      expect(await items(search[path]({ query: 'zzzyzzx' }))).toEqual([]);
    });

    it('answers 422 for a missing or empty query', async () => {
      // Raw: a missing required parameter is what the types forbid.
      const missing = await get(path);
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toEqual({
        detail: [{ loc: ['query', 'query'], msg: 'Field required', type: 'missing' }],
      });
      const empty = await search[path]({ query: ' ' });
      expect(empty.response.status).toBe(422);
      expect(issuesOf(empty)).toEqual([
        expect.objectContaining({ loc: ['query', 'query'], type: 'string_too_short' }),
      ]);
    });

    it.each([
      ['0', 422],
      ['1', 200],
      ['50', 200],
      ['51', 422],
    ])('limit=%s answers %s', async (limit, status) => {
      const response = await search[path]({ query: 'S&P 500', limit: Number(limit) });
      expect(response.response.status).toBe(status);
      if (status === 200) expect(dataOf(response).length).toBe(Number(limit));
      else expect(issuesOf(response)[0].loc).toEqual(['query', 'limit']);
    });
  });

  describe.each(['market/news/stock', 'news/stock'] as const)('GET /api/v1/%s/{symbol}', (path) => {
    it('lists 5 stories about the stock by default', async () => {
      const list = await items(aboutStock[path]('aapl'));
      expect(list).toHaveLength(5);
      expectWellFormed(list);
      for (const item of list) expect(item.title).toContain('(AAPL)');
    });

    it('accepts the class share written with a dash', async () => {
      const list = await items(aboutStock[path]('brk-b', { limit: 1 }));
      expect(list).toHaveLength(1);
      expect(list[0].title).toContain('(BRK.B)');
    });

    it('answers an unknown or blank symbol with an empty list', async () => {
      expect(await items(aboutStock[path]('ZZZZ'))).toEqual([]);
      expect(await items(aboutStock[path](' '))).toEqual([]);
    });

    it.each([
      ['0', 422],
      ['1', 200],
      ['20', 200],
      ['21', 422],
    ])('limit=%s answers %s', async (limit, status) => {
      const response = await aboutStock[path]('MLM', { limit: Number(limit) });
      expect(response.response.status).toBe(status);
      if (status === 200) expect(dataOf(response).length).toBeLessThanOrEqual(Number(limit));
      else expect(issuesOf(response)[0].loc).toEqual(['query', 'limit']);
    });
  });

  describe('GET /api/v1/news/items/{id}', () => {
    it('returns the story its url points to, consistent with the quote of the session', async () => {
      const response = await story('20261120-gainer-mlm');
      expect(response.response.status).toBe(200);
      const title = 'Martin Marietta Materials stock climbs 9.4% to close at $128.88';
      const description =
        'Shares of Martin Marietta Materials closed at $128.88, up $11.03 (9.36%) from the previous close of $117.85, ' +
        'the biggest percentage gain in the S&P 500. The stock traded between $108.31 and $133.58. ' +
        'Volume was 3.2 million shares, 3.0 times the 20-day average.';
      expect(dataOf(response)).toEqual({
        title,
        description,
        url: 'https://invest.example.com/api/v1/news/items/20261120-gainer-mlm',
        source: 'Market Replay Wire',
        publishedAt: '2026-11-20T21:05:00.000Z',
        ...engine.scoreArticle(title, description),
      });
      const quote = dataOf(
        await api().GET('/api/v1/market/stock/{symbol}', { params: { path: { symbol: 'MLM' } } }),
      );
      expect(quote).toMatchObject({ price: 128.88, change: 11.03, changePercent: 9.36 });
      const summary = dataOf(await api().GET('/api/v1/market/summary'));
      expect(summary.topGainers[0]).toMatchObject({ symbol: 'MLM' });
    });

    // Issue 21, defect 9: a person following a story's url got a 401 JSON answer.
    it('is public, and a browser following the url gets the story as a small page', async () => {
      const url = '/api/v1/news/items/20261120-gainer-mlm';
      const json = await sut.inject({ url });
      expect(json.statusCode).toBe(200);
      expect(json.json().title).toBe('Martin Marietta Materials stock climbs 9.4% to close at $128.88');
      expect(json.headers.vary).toContain('Accept');

      const page = await sut.inject({
        url,
        headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toMatch(
        /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/,
      );
      expect(page.body).toContain('<h1>Martin Marietta Materials stock climbs 9.4% to close at $128.88</h1>');
      expect(page.body).toContain('Shares of Martin Marietta Materials closed at $128.88, up $11.03 (9.36%)');
      expect(page.body).toContain('<time datetime="2026-11-20T21:05:00.000Z">');
      expect(page.body).not.toContain('<script');

      const missing = await sut.inject({
        url: '/api/v1/news/items/nonsense',
        headers: { accept: 'text/html' },
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ detail: 'News item not found' });
    });

    it('resolves every url the feed hands out', async () => {
      for (const item of await items(latest.news({ limit: 5 }))) {
        const id = item.url.split('/').pop()!;
        const response = await story(id);
        expect(response.response.status).toBe(200);
        expect(dataOf(response)).toEqual(item);
      }
    });

    it.each([
      '20261120-gainer-zzzz',
      'nonsense',
      '20261121-market-close',
      '20261127-market-close',
      '20261399-market-close',
    ])('answers 404 for %s', async (id) => {
      const response = await story(id);
      expect(response.response.status).toBe(404);
      expect(response.error).toEqual({ detail: 'News item not found' });
    });
  });

  describe('on the replay calendar', () => {
    it('files a story only once its time has come', async () => {
      time.set('2026-11-20T21:04:59Z');
      const list = await items(latest.news({ limit: 3 }));
      expect(list[0].publishedAt).toBe('2026-11-19T21:45:00.000Z');
      expect((await story('20261120-gainer-mlm')).response.status).toBe(404);
      expect((await story('20261120-brief-mlm')).response.status).toBe(200);
      time.set('2026-11-20T21:05:00Z');
      expect((await items(latest.news({ limit: 1 })))[0].url).toContain('20261120-gainer-mlm');
      expect((await story('20261120-gainer-mlm')).response.status).toBe(200);
    });

    it('serves the last closed session until the next one closes', async () => {
      time.set('2026-11-23T15:00:00Z');
      expect((await items(latest.news({ limit: 1 })))[0].publishedAt).toBe('2026-11-20T21:45:00.000Z');
    });
  });

  describe('POST /api/v1/news/sentiment', () => {
    const score = (texts: string[]) =>
      typedApi(sut, user).POST('/api/v1/news/sentiment', { body: { texts } });
    // Raw: bodies the typed client refuses to build (a number among the texts, no texts).
    const post = (payload: unknown) =>
      sut.inject({
        method: 'POST',
        url: '/api/v1/news/sentiment',
        headers: user.headers,
        payload: payload as object,
      });

    it('scores each text with the engine, in order', async () => {
      const texts = [
        'Quarterly profit rose 12%, beating estimates.',
        'The lender cut its dividend.',
        'The meeting is on Tuesday.',
      ];
      const response = await score(texts);
      expect(response.response.status).toBe(200);
      expect(response.data).toEqual(texts.map((text) => engine.score(text)));
      expect(dataOf(response).map((result) => result.sentiment)).toEqual(['positive', 'negative', 'neutral']);
    });

    it('adds the features behind each score with explain=true, the scores unchanged', async () => {
      const texts = ['Nike upgraded to Buy at Deutsche Bank', 'The meeting is on Tuesday.', ' '];
      const scored = await typedApi(sut, user).POST('/api/v1/news/sentiment', {
        params: { query: { explain: true } },
        body: { texts },
      });
      expect(scored.response.status).toBe(200);
      const results = dataOf(scored);
      expect(results.map(({ sentiment, sentimentScore }) => ({ sentiment, sentimentScore }))).toEqual(
        texts.map((text) => engine.score(text)),
      );
      for (const [index, result] of results.entries()) {
        expect(Object.keys(result).sort()).toEqual(['explanation', 'sentiment', 'sentimentScore']);
        expect(result.explanation).toEqual(
          engine.explain(texts[index], 8).map(({ feature, contribution }) => ({
            feature,
            contribution: Math.round(contribution * 10_000) / 10_000,
          })),
        );
      }
      expect(results[0].explanation?.length).toBeGreaterThan(0);
      expect(results[0].explanation?.length).toBeLessThanOrEqual(8);
      expect(results[2].explanation).toEqual([]);
    });

    it('answers without explanations for explain=false and refuses a non-boolean explain', async () => {
      const plain = await typedApi(sut, user).POST('/api/v1/news/sentiment', {
        params: { query: { explain: false } },
        body: { texts: ['Sales grew.'] },
      });
      expect(plain.response.status).toBe(200);
      expect(plain.data).toEqual([engine.score('Sales grew.')]);
      // Raw: a non-boolean explain.
      const refused = await sut.inject({
        method: 'POST',
        url: '/api/v1/news/sentiment?explain=maybe',
        headers: user.headers,
        payload: { texts: ['Sales grew.'] },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({
        detail: [
          {
            loc: ['query', 'explain'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            type: 'bool_parsing',
          },
        ],
      });
    });

    it('takes 1 and 100 texts, and texts of 5,000 characters', async () => {
      expect((await score(['Sales grew.'])).data).toHaveLength(1);
      expect((await score(Array<string>(100).fill('Sales grew.'))).data).toHaveLength(100);
      expect((await score(['a'.repeat(5000)])).response.status).toBe(200);
    });

    it('refuses an empty list and more than 100 texts', async () => {
      const empty = await score([]);
      expect(empty.response.status).toBe(422);
      expect(issuesOf(empty)).toEqual([
        expect.objectContaining({ loc: ['body', 'texts'], type: 'too_short' }),
      ]);
      const tooMany = await score(Array<string>(101).fill('x'));
      expect(tooMany.response.status).toBe(422);
      expect(issuesOf(tooMany)).toEqual([
        expect.objectContaining({ loc: ['body', 'texts'], type: 'too_long' }),
      ]);
    });

    it('refuses a text over 5,000 characters and a non-string, naming its index', async () => {
      const response = await post({ texts: ['fine', 'a'.repeat(5001), 7] });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          {
            loc: ['body', 'texts', 1],
            msg: 'String should have at most 5000 characters',
            type: 'string_too_long',
            ctx: { max_length: 5000 },
          },
          { loc: ['body', 'texts', 2], msg: 'Input should be a valid string', type: 'string_type' },
        ],
      });
    });

    it('refuses a body without texts', async () => {
      const response = await post({});
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [{ loc: ['body', 'texts'], msg: 'Field required', type: 'missing' }],
      });
    });
  });

  it('answers 503 for social sentiment without FINNHUB_API_KEY', async () => {
    const response = await api().GET('/api/v1/news/social/{symbol}', {
      params: { path: { symbol: 'AAPL' } },
    });
    expect(response.response.status).toBe(503);
    expect(response.error).toEqual({
      detail: 'Social sentiment is not available. Set FINNHUB_API_KEY to enable it',
    });
  });
});
