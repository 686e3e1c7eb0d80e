import { HttpService } from '@nestjs/axios';
import axios from 'axios';
import {
  FixtureReply,
  RecordedRequest,
  VendorFixtureServer,
} from '../../../../test/fakes/fake-vendor-server';
import { VendorUnavailableError, UnknownSymbolError } from '../provider-errors';
import { YahooMarketDataProvider } from './yahoo-market-data.provider';

const SESSION_COOKIE =
  'A3=d=AQABBKx; Expires=Sun, 23 Nov 2025 10:00:00 GMT; Max-Age=31557600; Domain=.yahoo.com; Path=/; SameSite=None; Secure; HttpOnly';

describe('YahooMarketDataProvider', () => {
  let server: VendorFixtureServer;
  let sut: YahooMarketDataProvider;
  let crumbs: string[];

  /** The cookie page and the crumb endpoint as Yahoo serves them; `api` answers the rest. */
  const yahoo =
    (api: (request: RecordedRequest) => FixtureReply) =>
    (request: RecordedRequest): FixtureReply => {
      if (request.path === '/cookie')
        return { status: 404, body: 'Not Found', headers: { 'set-cookie': [SESSION_COOKIE] } };
      if (request.path === '/v1/test/getcrumb') {
        if (request.headers.cookie !== 'A3=d=AQABBKx') return { status: 403, body: 'Forbidden' };
        return { body: crumbs.shift() ?? 'crumb-x' };
      }
      return api(request);
    };

  beforeAll(async () => {
    server = await VendorFixtureServer.start(() => ({ status: 500 }));
  });
  afterAll(() => server.close());

  beforeEach(() => {
    server.requests.length = 0;
    crumbs = ['crumb-1', 'crumb-2'];
    sut = new YahooMarketDataProvider(new HttpService(axios.create({ timeout: 500 })), {
      baseUrl: server.url,
      cookieUrl: `${server.url}/cookie`,
    });
  });

  it('quotes many symbols with one v7 request, with the session cookie and crumb', async () => {
    server.route = yahoo(() => ({ fixture: 'yahoo/quote-aapl-brkb-gspc.json' }));
    const quotes = await sut.quotes(['AAPL', 'BRK.B', '^GSPC', 'ZZZZZZ']);
    expect(Object.keys(quotes).sort()).toEqual(['AAPL', 'BRK.B', '^GSPC']);
    expect(quotes['BRK.B']).toEqual({
      symbol: 'BRK.B',
      name: 'Berkshire Hathaway Inc.',
      price: 474.82,
      previousClose: 470.45,
      open: 471.2,
      high: 476.5,
      low: 469.87,
      volume: 3212400,
      asOf: '2024-11-21T21:00:02.000Z',
    });
    const quoteRequests = server.requests.filter((request) => request.path === '/v7/finance/quote');
    expect(quoteRequests).toHaveLength(1);
    expect(quoteRequests[0].query.get('symbols')).toBe('AAPL,BRK-B,^GSPC,ZZZZZZ');
    expect(quoteRequests[0].query.get('crumb')).toBe('crumb-1');
    expect(quoteRequests[0].headers.cookie).toBe('A3=d=AQABBKx');
  });

  it('opens the session once and reuses the crumb', async () => {
    server.route = yahoo(() => ({ fixture: 'yahoo/quote-aapl-brkb-gspc.json' }));
    await sut.quote('AAPL');
    await sut.quote('AAPL');
    expect(server.paths()).toEqual([
      '/cookie',
      '/v1/test/getcrumb',
      '/v7/finance/quote',
      '/v7/finance/quote',
    ]);
  });

  it('renews an expired crumb once on 401 Invalid Crumb', async () => {
    server.route = yahoo(({ query }) =>
      query.get('crumb') === 'crumb-1'
        ? { status: 401, fixture: 'yahoo/invalid-crumb.json' }
        : { fixture: 'yahoo/quote-aapl-brkb-gspc.json' },
    );
    expect((await sut.quote('AAPL')).price).toBe(229.87);
    expect(server.requests.filter((request) => request.path === '/v1/test/getcrumb')).toHaveLength(2);
  });

  it('treats a symbol missing from the v7 result as unknown', async () => {
    server.route = yahoo(() => ({ fixture: 'yahoo/quote-aapl-brkb-gspc.json' }));
    await expect(sut.quote('ZZZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('respects 429 Too Many Requests', async () => {
    server.route = yahoo(() => ({ status: 429, body: 'Too Many Requests' }));
    await expect(sut.quote('AAPL')).rejects.toMatchObject({ rateLimited: true, retryAfterMs: 60_000 });
  });

  it('reads the v8 chart, dated in New York, skipping null bars', async () => {
    server.route = yahoo(() => ({ fixture: 'yahoo/chart-aapl.json' }));
    const bars = await sut.dailyHistory('AAPL', '2024-11-18', '2024-11-22');
    expect(bars.map((bar) => bar.date)).toEqual(['2024-11-18', '2024-11-19', '2024-11-20', '2024-11-21']);
    expect(bars[3]).toEqual({
      date: '2024-11-21',
      open: 228.88,
      high: 230.72,
      low: 228.06,
      close: 228.52,
      volume: 42108300,
    });
    const [request] = server.requests;
    expect(request.path).toBe('/v8/finance/chart/AAPL');
    expect(request.query.get('interval')).toBe('1d');
    expect(request.query.get('period1')).toBe(String(Date.parse('2024-11-18T00:00:00Z') / 1000));
  });

  it("reports the v8 chart's split events, oldest first on their New York dates, beside closes that are adjusted", async () => {
    server.route = yahoo(() => ({ fixture: 'yahoo/chart-aapl-splits.json' }));
    expect(await sut.splits('AAPL', '2006-11-27', '2026-11-27')).toEqual({
      adjustedCloses: true,
      splits: [
        { date: '2014-06-09', to: 7, from: 1 },
        { date: '2020-08-31', to: 4, from: 1 },
      ],
    });
    const [request] = server.requests.filter((recorded) => recorded.path.startsWith('/v8/'));
    expect(request.path).toBe('/v8/finance/chart/AAPL');
    expect(request.query.get('events')).toBe('split');
    expect(request.query.get('period1')).toBe(String(Date.parse('2006-11-27T00:00:00Z') / 1000));
    server.route = yahoo(() => ({ status: 404, fixture: 'yahoo/chart-not-found.json' }));
    await expect(sut.splits('ZZZZZZ', '2006-11-27', '2026-11-27')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('maps a chart 404 to an unknown symbol', async () => {
    server.route = yahoo(() => ({ status: 404, fixture: 'yahoo/chart-not-found.json' }));
    await expect(sut.dailyHistory('ZZZZZZ', '2024-11-18', '2024-11-22')).rejects.toBeInstanceOf(
      UnknownSymbolError,
    );
  });

  it('reads name and sector from quoteSummary', async () => {
    server.route = yahoo(({ path }) =>
      path.endsWith('/AAPL')
        ? { fixture: 'yahoo/quote-summary-aapl.json' }
        : { status: 404, fixture: 'yahoo/quote-summary-not-found.json' },
    );
    expect(await sut.profile('AAPL')).toEqual({ symbol: 'AAPL', name: 'Apple Inc.', sector: 'technology' });
    await expect(sut.profile('ZZZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('searches equities, leaving options out', async () => {
    server.route = yahoo(() => ({ fixture: 'yahoo/search-apple.json' }));
    expect(await sut.search('apple', 10)).toEqual([
      { symbol: 'AAPL', name: 'Apple Inc.' },
      { symbol: 'APLE', name: 'Apple Hospitality REIT, Inc.' },
    ]);
  });

  it('reads movers from the day_gainers and day_losers screeners', async () => {
    server.route = yahoo(({ query }) => ({
      fixture: `yahoo/screener-${query.get('scrIds') === 'day_gainers' ? 'day-gainers' : 'day-losers'}.json`,
    }));
    const movers = await sut.movers(5);
    expect(movers.gainers.map((quote) => quote.symbol)).toEqual(['SMCI', 'RIVN']);
    expect(movers.losers.map((quote) => quote.symbol)).toEqual(['PDD']);
    expect(movers.losers[0]).toMatchObject({ price: 100.06, previousClose: 112.77 });
  });

  it('fails retryably when Yahoo is down', async () => {
    server.route = () => ({ status: 502, body: 'Bad Gateway' });
    await expect(sut.quote('AAPL')).rejects.toBeInstanceOf(VendorUnavailableError);
  });
});
