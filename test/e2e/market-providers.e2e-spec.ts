import { registerUser, TestUser } from '../factories/users.factory';
import { VendorFixtureServer } from '../fakes/fake-vendor-server';
import { createTestApp, TestApp } from '../setup/test-app';
import { typedApi } from '../support/typed-api';
import type { ApiClient } from '../../client';

/** The live providers, over HTTP against recorded vendor answers served locally. */
describe('market data from third-party providers', () => {
  let vendor: VendorFixtureServer;

  beforeAll(async () => {
    vendor = await VendorFixtureServer.start(() => ({ status: 500 }));
  });
  afterAll(() => vendor.close());
  beforeEach(() => {
    vendor.requests.length = 0;
  });

  const boot = async (env: Record<string, string>): Promise<{ app: TestApp; user: TestUser }> => {
    const app = await createTestApp({
      env: {
        MARKET_DATA_FALLBACK: '',
        MARKET_DATA_MIN_INTERVAL_MS: '300',
        FINNHUB_API_KEY: 'test-token',
        FINNHUB_BASE_URL: vendor.url,
        ALPHA_VANTAGE_API_KEY: 'test-key',
        ALPHA_VANTAGE_BASE_URL: vendor.url,
        YAHOO_FINANCE_BASE_URL: vendor.url,
        YAHOO_FINANCE_COOKIE_URL: `${vendor.url}/cookie`,
        ...env,
      },
    });
    return { app, user: await registerUser(app) };
  };

  describe('when the provider is down', () => {
    let sut: TestApp;
    let user: TestUser;

    beforeAll(async () => {
      vendor.route = () => ({ status: 503, body: 'Service Unavailable' });
      ({ app: sut, user } = await boot({ MARKET_DATA_PROVIDER: 'finnhub' }));
    });
    afterAll(() => sut.close());

    const aapl = { params: { path: { symbol: 'AAPL' } } };
    it.each([
      [
        'stock/AAPL',
        (api: ApiClient) => api.GET('/api/v1/market/stock/{symbol}', aapl),
        'Failed to retrieve stock data for AAPL',
      ],
      [
        'stocks/batch?symbols=AAPL,MSFT',
        (api: ApiClient) =>
          api.GET('/api/v1/market/stocks/batch', { params: { query: { symbols: 'AAPL,MSFT' } } }),
        'Failed to retrieve batch stock data',
      ],
      ['summary', (api: ApiClient) => api.GET('/api/v1/market/summary'), 'Failed to retrieve market summary'],
      [
        'stock/AAPL/history',
        (api: ApiClient) => api.GET('/api/v1/market/stock/{symbol}/history', aapl),
        'Failed to retrieve price history for AAPL',
      ],
    ])('GET %s answers 500 with the spec detail', async (_url, call, detail) => {
      const { response, error } = await call(typedApi(sut, user));
      expect(response.status).toBe(500);
      expect(error).toEqual({ detail });
    });
  });

  describe('with a fallback', () => {
    let sut: TestApp;
    let user: TestUser;

    beforeAll(async () => {
      ({ app: sut, user } = await boot({
        MARKET_DATA_PROVIDER: 'alphavantage',
        MARKET_DATA_FALLBACK: 'replay',
      }));
    });
    afterAll(() => sut.close());

    it('answers from the replay while Alpha Vantage rate-limits, then keeps off Alpha Vantage', async () => {
      vendor.route = () => ({ fixture: 'alphavantage/note-rate-limit.json' });
      const api = typedApi(sut, user);
      const first = await api.GET('/api/v1/market/stock/{symbol}', { params: { path: { symbol: 'AAPL' } } });
      expect(first.response.status).toBe(200);
      expect(first.data).toMatchObject({ symbol: 'AAPL', name: 'Apple Inc.' });
      const second = await api.GET('/api/v1/market/stock/{symbol}', { params: { path: { symbol: 'MSFT' } } });
      expect(second.response.status).toBe(200);
      expect(vendor.requests).toHaveLength(1);
    });
  });

  describe('on Yahoo Finance', () => {
    let sut: TestApp;
    let user: TestUser;

    beforeAll(async () => {
      ({ app: sut, user } = await boot({ MARKET_DATA_PROVIDER: 'yahoo' }));
    });
    afterAll(() => sut.close());

    it('serves a batch with one quote request, then single quotes from the cache', async () => {
      vendor.route = ({ path }) => {
        if (path === '/cookie')
          return { status: 404, headers: { 'set-cookie': ['A3=d=AQABBKx; Domain=.yahoo.com; Path=/'] } };
        if (path === '/v1/test/getcrumb') return { body: 'crumb-1' };
        return { fixture: 'yahoo/quote-aapl-brkb-gspc.json' };
      };
      const api = typedApi(sut, user);
      const batch = await api.GET('/api/v1/market/stocks/batch', {
        params: { query: { symbols: 'aapl,BRK-B,zzzzzz' } },
      });
      expect(batch.response.status).toBe(200);
      expect(batch.data).toEqual({
        data: {
          AAPL: { symbol: 'AAPL', name: 'Apple Inc.', price: 229.87, change: 1.35, changePercent: 0.59 },
          'BRK-B': {
            symbol: 'BRK.B',
            name: 'Berkshire Hathaway Inc.',
            price: 474.82,
            change: 4.37,
            changePercent: 0.93,
          },
          ZZZZZZ: { error: 'Stock ZZZZZZ not found' },
        },
        requested_symbols: ['AAPL', 'BRK-B', 'ZZZZZZ'],
      });
      const quote = await api.GET('/api/v1/market/stock/{symbol}', { params: { path: { symbol: 'AAPL' } } });
      expect(quote.data).toMatchObject({ price: 229.87 });
      expect(vendor.paths().filter((path) => path === '/v7/finance/quote')).toHaveLength(1);
      expect(
        vendor.requests.find((request) => request.path === '/v7/finance/quote')?.query.get('symbols'),
      ).toBe('AAPL,BRK-B,ZZZZZZ');
    });

    it('answers 404 for a symbol Yahoo does not know', async () => {
      const { response, error } = await typedApi(sut, user).GET('/api/v1/market/stock/{symbol}', {
        params: { path: { symbol: 'QQQQQQ' } },
      });
      expect(response.status).toBe(404);
      expect(error).toEqual({ detail: 'Stock QQQQQQ not found' });
    });
  });
});
