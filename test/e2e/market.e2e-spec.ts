import { Clock } from '../../src/common/time/clock';
import { FakeClock } from '../fakes/clock';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { dataOf, issuesOf, QueryOf, typedApi } from '../support/typed-api';

// The replay maps Friday 2026-11-20 onto the real trading day 2016-02-09. Expected figures below
// are that day's real prices (AAPL opened 94.29, closed 94.99 after 95.01 the day before).
const FRIDAY_AFTER_CLOSE = '2026-11-20T22:00:00Z';

describe('market data on the offline replay (spec 4.2)', () => {
  let sut: TestApp;
  let user: TestUser;
  const time = new FakeClock(FRIDAY_AFTER_CLOSE);

  beforeAll(async () => {
    sut = await createTestApp({
      env: { MARKET_DATA_PROVIDER: '', MARKET_DATA_FALLBACK: '' },
      override: (builder) => builder.overrideProvider(Clock).useValue(time),
    });
    user = await registerUser(sut);
  });
  afterAll(() => sut.close());
  beforeEach(() => time.set(FRIDAY_AFTER_CLOSE));

  // Raw: requests without a token, and the queries the types forbid (a missing required parameter,
  // an interval or a limit outside its type).
  const get = (url: string, headers: Record<string, string> = user.headers) =>
    sut.inject({ url: `/api/v1/market/${url}`, headers });
  const api = () => typedApi(sut, user);
  const quote = (symbol: string) =>
    api().GET('/api/v1/market/stock/{symbol}', { params: { path: { symbol } } });
  const splits = (symbol: string) =>
    api().GET('/api/v1/market/stock/{symbol}/splits', { params: { path: { symbol } } });
  const history = (symbol: string, query?: QueryOf<'/api/v1/market/stock/{symbol}/history'>) =>
    api().GET('/api/v1/market/stock/{symbol}/history', { params: { path: { symbol }, query } });
  const batch = (symbols: string) =>
    api().GET('/api/v1/market/stocks/batch', { params: { query: { symbols } } });
  const search = (query: QueryOf<'/api/v1/market/search'>) =>
    api().GET('/api/v1/market/search', { params: { query } });
  const summary = () => api().GET('/api/v1/market/summary');

  it.each([
    'stock/AAPL',
    'stock/AAPL/history',
    'stock/AAPL/splits',
    'stocks/batch?symbols=AAPL',
    'summary',
    'search?query=apple',
  ])('answers 401 to GET %s without a token', async (url) => {
    const response = await get(url, {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'Could not validate credentials' });
  });

  describe('GET /market/stock/{symbol}', () => {
    it('quotes a stock with the Stock fields', async () => {
      const response = await quote('AAPL');
      expect(response.response.status).toBe(200);
      expect(dataOf(response)).toEqual({
        symbol: 'AAPL',
        name: 'Apple Inc.',
        price: 94.99,
        change: -0.02,
        changePercent: -0.02,
      });
    });

    it('accepts lower case and surrounding spaces', async () => {
      const response = await quote(' msft ');
      expect(response.response.status).toBe(200);
      expect(dataOf(response)).toEqual({
        symbol: 'MSFT',
        name: 'Microsoft Corp.',
        price: 49.28,
        change: -0.13,
        changePercent: -0.26,
      });
    });

    it.each(['BRK.B', 'brk-b'])('accepts the class share written %s', async (symbol) => {
      const response = await quote(symbol);
      expect(response.response.status).toBe(200);
      expect(dataOf(response)).toEqual({
        symbol: 'BRK.B',
        name: 'Berkshire Hathaway',
        price: 127.72,
        change: 0.94,
        changePercent: 0.74,
      });
    });

    it('answers 404 for a symbol outside the universe', async () => {
      const response = await quote('zzzz');
      expect(response.response.status).toBe(404);
      expect(response.error).toEqual({ detail: 'Stock ZZZZ not found' });
    });

    it('moves from the open to the close during the New York session', async () => {
      time.set('2026-11-20T14:30:00Z');
      expect(dataOf(await quote('AAPL')).price).toBe(94.29);
      time.set('2026-11-20T17:45:00Z');
      // Half-way along open 94.29 → low 93.93 → high 95.94 → close 94.99.
      expect(dataOf(await quote('AAPL')).price).toBe(95.23);
      time.set('2026-11-20T21:00:00Z');
      expect(dataOf(await quote('AAPL')).price).toBe(94.99);
    });

    it('holds Friday close over the weekend and until Monday opens', async () => {
      for (const instant of ['2026-11-21T15:00:00Z', '2026-11-23T14:29:00Z']) {
        time.set(instant);
        expect(dataOf(await quote('AAPL'))).toMatchObject({ price: 94.99, change: -0.02 });
      }
    });
  });

  describe('GET /market/stocks/batch', () => {
    it('mixes stocks and {error} entries, trimming, upper-casing and de-duplicating', async () => {
      const response = await batch(' aapl,zzzz,,AAPL,brk-b ');
      expect(response.response.status).toBe(200);
      expect(dataOf(response)).toEqual({
        data: {
          AAPL: { symbol: 'AAPL', name: 'Apple Inc.', price: 94.99, change: -0.02, changePercent: -0.02 },
          ZZZZ: { error: 'Stock ZZZZ not found' },
          'BRK-B': {
            symbol: 'BRK.B',
            name: 'Berkshire Hathaway',
            price: 127.72,
            change: 0.94,
            changePercent: 0.74,
          },
        },
        requested_symbols: ['AAPL', 'ZZZZ', 'BRK-B'],
      });
    });

    it('takes a single symbol', async () => {
      const response = await batch('msft');
      expect(response.response.status).toBe(200);
      expect(dataOf(response).requested_symbols).toEqual(['MSFT']);
      expect(Object.keys(dataOf(response).data)).toEqual(['MSFT']);
    });

    it('takes 10 symbols', async () => {
      const symbols = ['AAPL', 'MSFT', 'GOOGL', 'AMZN', 'FB', 'JPM', 'XOM', 'JNJ', 'WMT', 'NOPE'];
      const response = await batch(symbols.join(','));
      expect(response.response.status).toBe(200);
      expect(dataOf(response).requested_symbols).toEqual(symbols);
      expect(dataOf(response).data.NOPE).toEqual({ error: 'Stock NOPE not found' });
      expect(dataOf(response).data.JPM).toMatchObject({ symbol: 'JPM', name: 'JPMorgan Chase & Co.' });
    });

    it('refuses 11 symbols with 400', async () => {
      const symbols = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K'];
      const response = await batch(symbols.join(','));
      expect(response.response.status).toBe(400);
      expect(response.error).toEqual({ detail: 'Maximum 10 symbols allowed per batch request' });
    });

    it('counts duplicates once toward the limit', async () => {
      const response = await batch(Array(11).fill('aapl').join(','));
      expect(response.response.status).toBe(200);
      expect(dataOf(response).requested_symbols).toEqual(['AAPL']);
    });

    it('answers 422 without symbols', async () => {
      const missing = await get('stocks/batch');
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toEqual({
        detail: [{ loc: ['query', 'symbols'], msg: 'Field required', type: 'missing' }],
      });
      const empty = await batch(' ,,');
      expect(empty.response.status).toBe(422);
      expect(issuesOf(empty)).toEqual([
        expect.objectContaining({ loc: ['query', 'symbols'], type: 'too_short' }),
      ]);
    });
  });

  describe('GET /market/summary', () => {
    it('gives the three indices and the five top gainers and losers', async () => {
      const response = await summary();
      expect(response.response.status).toBe(200);
      expect(dataOf(response)).toEqual({
        indices: [
          { name: 'S&P 500', value: 1852.21, change: -1.23, changePercent: -0.07 },
          { name: 'Dow Jones', value: 16014.38, change: -12.67, changePercent: -0.08 },
          { name: 'NASDAQ', value: 4268.76, change: -14.99, changePercent: -0.35 },
        ],
        topGainers: [
          {
            symbol: 'MLM',
            name: 'Martin Marietta Materials',
            price: 128.88,
            change: 11.03,
            changePercent: 9.36,
          },
          { symbol: 'MAS', name: 'Masco Corp.', price: 25.39, change: 1.93, changePercent: 8.23 },
          { symbol: 'WMB', name: 'Williams Cos.', price: 11.98, change: 0.82, changePercent: 7.35 },
          { symbol: 'CRM', name: 'Salesforce.com', price: 57.33, change: 3.28, changePercent: 6.07 },
          { symbol: 'BSX', name: 'Boston Scientific', price: 16.87, change: 0.8, changePercent: 4.98 },
        ],
        topLosers: [
          { symbol: 'VIAB', name: 'Viacom Inc.', price: 32.86, change: -8.99, changePercent: -21.48 },
          { symbol: 'HCP', name: 'HCP Inc.', price: 28.33, change: -5.66, changePercent: -16.65 },
          { symbol: 'TDG', name: 'TransDigm Group', price: 187.29, change: -27.34, changePercent: -12.74 },
          { symbol: 'OKE', name: 'ONEOK', price: 20.63, change: -2.53, changePercent: -10.92 },
          { symbol: 'RRC', name: 'Range Resources Corp.', price: 28.04, change: -2.62, changePercent: -8.55 },
        ],
      });
    });
  });

  describe('GET /market/stock/{symbol}/splits', () => {
    it('lists the split the replay puts on its calendar each cycle, over the last 20 years, on adjusted closes', async () => {
      const response = await splits(' aapl');
      expect(response.response.status).toBe(200);
      expect(dataOf(response)).toEqual({
        symbol: 'AAPL',
        adjusted_closes: true,
        splits: [
          { date: '2010-10-22', ratio: '7:1' },
          { date: '2015-08-19', ratio: '7:1' },
          { date: '2020-06-15', ratio: '7:1' },
          { date: '2025-04-10', ratio: '7:1' },
        ],
      });
    });

    it('shows the adjusted closes continuous across the split: 2014-06-06 then 2014-06-09 replayed', async () => {
      const response = await history('AAPL', { from: '2025-04-09', to: '2025-04-10' });
      expect(dataOf(response).bars.map((bar: { close: number }) => bar.close)).toEqual([92.2242, 93.7]);
    });

    it.each([
      [
        'V',
        [
          { date: '2011-07-25', ratio: '4:1' },
          { date: '2016-05-19', ratio: '4:1' },
          { date: '2021-03-16', ratio: '4:1' },
          { date: '2026-01-09', ratio: '4:1' },
        ],
      ],
      ['MSFT', []],
    ])('lists the splits of %s', async (symbol, expected) => {
      const response = await splits(symbol);
      expect(response.response.status).toBe(200);
      expect(dataOf(response)).toEqual({ symbol, adjusted_closes: true, splits: expected });
    });

    it('answers 404 for a symbol outside the universe, as the quote route does', async () => {
      const response = await splits('zzzz');
      expect(response.response.status).toBe(404);
      expect(response.error).toEqual({ detail: 'Stock ZZZZ not found' });
    });
  });

  describe('GET /market/stock/{symbol}/history', () => {
    it('defaults to the last year of daily bars, NYSE sessions only, oldest first', async () => {
      const response = await history('aapl');
      expect(response.response.status).toBe(200);
      const body = dataOf(response);
      expect(body.symbol).toBe('AAPL');
      expect(body.interval).toBe('1d');
      // 262 weekdays less the 10 NYSE holidays among them (Thanksgiving 2025 to Independence Day
      // observed and Labor Day 2026)
      expect(body.bars).toHaveLength(252);
      expect(body.bars.map((bar: { date: string }) => bar.date)).not.toContain('2025-11-27');
      expect(body.bars[0].date).toBe('2025-11-20');
      expect(body.bars.at(-1)).toEqual({
        date: '2026-11-20',
        open: 94.29,
        high: 95.94,
        low: 93.93,
        close: 94.99,
        volume: 44331195,
      });
      for (const bar of body.bars)
        expect([0, 6]).not.toContain(new Date(`${bar.date}T12:00:00Z`).getUTCDay());
    });

    it('stops at the running session, whose bar is still forming', async () => {
      time.set('2026-11-20T14:30:00Z');
      const bars = dataOf(await history('AAPL', { from: '2026-11-19', to: '2026-12-31' })).bars;
      expect(bars).toEqual([
        { date: '2026-11-19', open: 93.13, high: 95.7, low: 93.04, close: 95.01, volume: 54021375 },
        { date: '2026-11-20', open: 94.29, high: 94.29, low: 94.29, close: 94.29, volume: 0 },
      ]);
    });

    it('rolls bars up by week and by month, consistent with the daily ones', async () => {
      const query = { from: '2026-10-01', to: '2026-11-20' };
      const daily = dataOf(await history('AAPL', query)).bars;
      const weekly = dataOf(await history('AAPL', { ...query, interval: '1wk' }));
      const monthly = dataOf(await history('AAPL', { ...query, interval: '1mo' }));
      expect(weekly.interval).toBe('1wk');
      expect(weekly.bars.map((bar: { date: string }) => bar.date)).toEqual([
        '2026-10-01',
        '2026-10-05',
        '2026-10-12',
        '2026-10-19',
        '2026-10-26',
        '2026-11-02',
        '2026-11-09',
        '2026-11-16',
      ]);
      expect(monthly.bars.map((bar: { date: string }) => bar.date)).toEqual(['2026-10-01', '2026-11-02']);
      const november = daily.filter((bar: { date: string }) => bar.date >= '2026-11-01');
      expect(monthly.bars[1]).toMatchObject({
        open: november[0].open,
        close: november.at(-1)!.close,
        high: Math.max(...november.map((bar: { high: number }) => bar.high)),
      });
    });

    it('serves the indices too', async () => {
      const response = await history('^GSPC', { from: '2026-11-20', to: '2026-11-20' });
      expect(dataOf(response)).toEqual({
        symbol: '^GSPC',
        interval: '1d',
        bars: [{ date: '2026-11-20', open: 1848.46, high: 1868.25, low: 1834.94, close: 1852.21, volume: 0 }],
      });
    });

    it('answers 404 for an unknown symbol', async () => {
      const response = await history('ZZZZ');
      expect(response.response.status).toBe(404);
      expect(response.error).toEqual({ detail: 'Stock ZZZZ not found' });
    });

    it.each([
      ['from=2026-02-30', 'from', 'datetime_parsing'],
      ['to=yesterday', 'to', 'datetime_parsing'],
      ['interval=1h', 'interval', 'enum'],
    ])('answers 422 for %s', async (query, field, type) => {
      const response = await get(`stock/AAPL/history?${query}`);
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toEqual([expect.objectContaining({ loc: ['query', field], type })]);
    });

    it('answers 422 when from is after to', async () => {
      const response = await history('AAPL', { from: '2026-11-20', to: '2026-11-01' });
      expect(response.response.status).toBe(422);
      expect(response.error).toEqual({
        detail: [
          { loc: ['query', 'from'], msg: 'Value error, from must not be after to', type: 'value_error' },
        ],
      });
    });
  });

  describe('GET /market/search', () => {
    it('finds symbols by ticker and by company name, best first', async () => {
      const byTicker = await search({ query: 'aapl' });
      expect(byTicker.response.status).toBe(200);
      expect(dataOf(byTicker)[0]).toEqual({ symbol: 'AAPL', name: 'Apple Inc.' });
      const byName = await search({ query: 'berkshire' });
      expect(dataOf(byName)).toEqual([{ symbol: 'BRK.B', name: 'Berkshire Hathaway' }]);
    });

    it('defaults to 10 results', async () => {
      expect(dataOf(await search({ query: 'a' }))).toHaveLength(10);
    });

    it.each([
      [1, 1],
      [50, 50],
    ])('takes limit=%i', async (limit, expected) => {
      const response = await search({ query: 'a', limit });
      expect(response.response.status).toBe(200);
      expect(dataOf(response)).toHaveLength(expected);
    });

    it.each([
      ['limit=0', 'limit', 'greater_than_equal'],
      ['limit=51', 'limit', 'less_than_equal'],
      ['limit=ten', 'limit', 'int_parsing'],
    ])('answers 422 for %s', async (query, field, type) => {
      const response = await get(`search?query=a&${query}`);
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toEqual([expect.objectContaining({ loc: ['query', field], type })]);
    });

    it('answers 422 without a query', async () => {
      const response = await get('search');
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [{ loc: ['query', 'query'], msg: 'Field required', type: 'missing' }],
      });
    });
  });
});
