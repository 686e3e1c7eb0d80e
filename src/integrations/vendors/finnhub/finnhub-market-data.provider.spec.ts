import { HttpService } from '@nestjs/axios';
import axios from 'axios';
import { VendorFixtureServer } from '../../../../test/fakes/fake-vendor-server';
import { ProviderResponseError, VendorUnavailableError, UnknownSymbolError } from '../provider-errors';
import { FinnhubMarketDataProvider } from './finnhub-market-data.provider';

describe('FinnhubMarketDataProvider', () => {
  let server: VendorFixtureServer;
  let sut: FinnhubMarketDataProvider;

  beforeAll(async () => {
    server = await VendorFixtureServer.start(() => ({ status: 500 }));
  });
  afterAll(() => server.close());

  beforeEach(() => {
    server.requests.length = 0;
    sut = new FinnhubMarketDataProvider(new HttpService(axios.create({ timeout: 500 })), {
      apiKey: 'test-token',
      baseUrl: server.url,
    });
  });

  it('reads /quote with the token in the X-Finnhub-Token header', async () => {
    server.route = () => ({ fixture: 'finnhub/quote-aapl.json' });
    expect(await sut.quote('AAPL')).toEqual({
      symbol: 'AAPL',
      name: null,
      price: 229.87,
      previousClose: 228.52,
      open: 228.06,
      high: 230.16,
      low: 225.71,
      volume: 0,
      asOf: '2024-11-21T21:00:00.000Z',
    });
    expect(server.requests[0].path).toBe('/api/v1/quote');
    expect(server.requests[0].query.get('symbol')).toBe('AAPL');
    expect(server.requests[0].headers['x-finnhub-token']).toBe('test-token');
  });

  it('treats the all-zero quote as an unknown symbol', async () => {
    server.route = () => ({ fixture: 'finnhub/quote-unknown.json' });
    await expect(sut.quote('ZZZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('respects HTTP 429 with its Retry-After', async () => {
    server.route = () => ({
      status: 429,
      fixture: 'finnhub/rate-limit.json',
      headers: { 'retry-after': '7' },
    });
    await expect(sut.quote('AAPL')).rejects.toMatchObject({ rateLimited: true, retryAfterMs: 7_000 });
  });

  it('defaults the back-off to a minute when 429 says nothing', async () => {
    server.route = () => ({ status: 429, fixture: 'finnhub/rate-limit.json' });
    await expect(sut.quote('AAPL')).rejects.toMatchObject({ retryAfterMs: 60_000 });
  });

  it('reports an invalid key and a plan without access as non-retryable', async () => {
    server.route = () => ({ status: 401, fixture: 'finnhub/invalid-key.json' });
    await expect(sut.quote('AAPL')).rejects.toBeInstanceOf(ProviderResponseError);
    server.route = () => ({ status: 403, fixture: 'finnhub/no-access.json' });
    await expect(sut.dailyHistory('AAPL', '2024-11-18', '2024-11-21')).rejects.toBeInstanceOf(
      ProviderResponseError,
    );
  });

  it('reads daily candles dated in New York', async () => {
    server.route = () => ({ fixture: 'finnhub/candles-aapl.json' });
    const bars = await sut.dailyHistory('AAPL', '2024-11-18', '2024-11-21');
    expect(bars.map((bar) => bar.date)).toEqual(['2024-11-18', '2024-11-19', '2024-11-20', '2024-11-21']);
    expect(bars[0]).toEqual({
      date: '2024-11-18',
      open: 225.25,
      high: 229.74,
      low: 225.17,
      close: 228.02,
      volume: 44686000,
    });
    expect(server.requests[0].query.get('resolution')).toBe('D');
    expect(server.requests[0].query.get('from')).toBe(String(Date.parse('2024-11-18T00:00:00Z') / 1000));
  });

  it('gives no bars for no_data', async () => {
    server.route = () => ({ fixture: 'finnhub/candles-no-data.json' });
    expect(await sut.dailyHistory('AAPL', '1990-01-01', '1990-01-31')).toEqual([]);
  });

  it('reads profile2 with its industry as sector', async () => {
    server.route = () => ({ fixture: 'finnhub/profile2-aapl.json' });
    expect(await sut.profile('AAPL')).toEqual({ symbol: 'AAPL', name: 'Apple Inc', sector: 'technology' });
    server.route = () => ({ fixture: 'finnhub/profile2-empty.json' });
    await expect(sut.profile('ZZZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('searches US symbols', async () => {
    server.route = () => ({ fixture: 'finnhub/search-apple.json' });
    expect(await sut.search('apple', 2)).toEqual([
      { symbol: 'AAPL', name: 'APPLE INC' },
      { symbol: 'APLE', name: 'APPLE HOSPITALITY REIT INC' },
    ]);
    expect(server.requests[0].query.get('q')).toBe('apple');
  });

  it('has no movers endpoint and says so retryably, for the fallback to answer', async () => {
    await expect(sut.movers()).rejects.toBeInstanceOf(VendorUnavailableError);
    expect(server.requests).toHaveLength(0);
  });
});
