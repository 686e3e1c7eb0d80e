import { HttpService } from '@nestjs/axios';
import axios from 'axios';
import { VendorFixtureServer } from '../../../../test/fakes/fake-vendor-server';
import { ProviderResponseError, VendorUnavailableError, UnknownSymbolError } from '../provider-errors';
import { AlphaVantageMarketDataProvider } from './alpha-vantage-market-data.provider';

describe('AlphaVantageMarketDataProvider', () => {
  let server: VendorFixtureServer;
  let sut: AlphaVantageMarketDataProvider;
  const now = new Date('2024-11-21T22:00:00Z');

  beforeAll(async () => {
    server = await VendorFixtureServer.start(() => ({ status: 500 }));
  });
  afterAll(() => server.close());

  beforeEach(() => {
    server.requests.length = 0;
    sut = new AlphaVantageMarketDataProvider(
      new HttpService(axios.create({ timeout: 500 })),
      { apiKey: 'test-key', baseUrl: server.url },
      () => now,
    );
  });

  const answer = (byFunction: Record<string, string>): void => {
    server.route = ({ query }) => ({ fixture: `alphavantage/${byFunction[query.get('function') ?? '']}` });
  };

  it('reads GLOBAL_QUOTE, sending the key and symbol', async () => {
    answer({ GLOBAL_QUOTE: 'global-quote-ibm.json' });
    expect(await sut.quote('IBM')).toEqual({
      symbol: 'IBM',
      name: null,
      price: 222.97,
      previousClose: 221.03,
      open: 222.35,
      high: 224.78,
      low: 221.44,
      volume: 3584713,
      asOf: now.toISOString(),
    });
    expect(server.requests[0].path).toBe('/query');
    expect(Object.fromEntries(server.requests[0].query)).toEqual({
      function: 'GLOBAL_QUOTE',
      symbol: 'IBM',
      apikey: 'test-key',
    });
  });

  it('reads an index from the ETF that tracks it', async () => {
    answer({ GLOBAL_QUOTE: 'global-quote-ibm.json' });
    await sut.quote('^GSPC');
    expect(server.requests[0].query.get('symbol')).toBe('SPY');
  });

  it('treats an empty Global Quote as an unknown symbol', async () => {
    answer({ GLOBAL_QUOTE: 'global-quote-empty.json' });
    await expect(sut.quote('ZZZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('turns the per-minute "Note" into a retryable rate limit', async () => {
    answer({ GLOBAL_QUOTE: 'note-rate-limit.json' });
    await expect(sut.quote('IBM')).rejects.toMatchObject({ rateLimited: true, retryAfterMs: 60_000 });
  });

  it('turns the daily quota "Information" into a long back-off', async () => {
    answer({ GLOBAL_QUOTE: 'information-daily-limit.json' });
    const error = await sut.quote('IBM').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VendorUnavailableError);
    expect((error as VendorUnavailableError).retryAfterMs).toBe(3_600_000);
  });

  it('reports a premium-only answer and an invalid key as non-retryable', async () => {
    answer({ TOP_GAINERS_LOSERS: 'information-premium.json', GLOBAL_QUOTE: 'error-invalid-key.json' });
    await expect(sut.movers(5)).rejects.toBeInstanceOf(ProviderResponseError);
    await expect(sut.quote('IBM')).rejects.toBeInstanceOf(ProviderResponseError);
  });

  it('maps HTTP 5xx and timeouts to retryable failures', async () => {
    server.route = () => ({ status: 503, body: 'Service Unavailable' });
    await expect(sut.quote('IBM')).rejects.toMatchObject({
      rateLimited: false,
      name: 'VendorUnavailableError',
    });
    server.route = () => ({ fixture: 'alphavantage/global-quote-ibm.json', delayMs: 2_000 });
    await expect(sut.quote('IBM')).rejects.toMatchObject({ message: 'alphavantage: ECONNABORTED' });
  });

  it('filters the daily series to the range, oldest first, and asks for the compact series when recent', async () => {
    answer({ TIME_SERIES_DAILY: 'time-series-daily-ibm.json' });
    const bars = await sut.dailyHistory('IBM', '2024-11-19', '2024-11-20');
    expect(bars).toEqual([
      { date: '2024-11-19', open: 207, high: 211, low: 206.5, close: 210.25, volume: 4712345 },
      { date: '2024-11-20', open: 221, high: 222.39, low: 219.5, close: 221.03, volume: 3126420 },
    ]);
    expect(server.requests[0].query.get('outputsize')).toBe('compact');
    await sut.dailyHistory('IBM', '2023-11-19', '2024-11-20');
    expect(server.requests[1].query.get('outputsize')).toBe('full');
  });

  it('treats "Invalid API call" for a symbol as unknown', async () => {
    answer({ TIME_SERIES_DAILY: 'error-invalid-call.json' });
    await expect(sut.dailyHistory('ZZZZZZ', '2024-11-01', '2024-11-20')).rejects.toBeInstanceOf(
      UnknownSymbolError,
    );
  });

  it('reads the company overview with its sector', async () => {
    answer({ OVERVIEW: 'overview-ibm.json' });
    expect(await sut.profile('IBM')).toEqual({
      symbol: 'IBM',
      name: 'International Business Machines',
      sector: 'technology',
    });
    answer({ OVERVIEW: 'overview-empty.json' });
    await expect(sut.profile('ZZZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('reports its daily closes as traded (not split-adjusted) and no splits; unknown symbols as such', async () => {
    answer({ OVERVIEW: 'overview-ibm.json' });
    expect(await sut.splits('IBM', '2006-01-01', '2026-01-01')).toEqual({
      adjustedCloses: false,
      splits: [],
    });
    answer({ OVERVIEW: 'overview-empty.json' });
    await expect(sut.splits('ZZZZZZ', '2006-01-01', '2026-01-01')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('keeps US matches of SYMBOL_SEARCH', async () => {
    answer({ SYMBOL_SEARCH: 'symbol-search-micro.json' });
    expect(await sut.search('micro', 10)).toEqual([
      { symbol: 'MSFT', name: 'Microsoft Corporation' },
      { symbol: 'MU', name: 'Micron Technology Inc' },
    ]);
    expect(server.requests[0].query.get('keywords')).toBe('micro');
  });

  it('reads TOP_GAINERS_LOSERS', async () => {
    answer({ TOP_GAINERS_LOSERS: 'top-gainers-losers.json' });
    const movers = await sut.movers(1);
    expect(movers.gainers).toHaveLength(1);
    expect(movers.gainers[0]).toMatchObject({ symbol: 'SMCI', price: 33.41, volume: 195312000 });
    expect(movers.gainers[0].previousClose).toBeCloseTo(21.38);
    expect(movers.losers[0]).toMatchObject({ symbol: 'PDD', price: 100.06 });
    expect(movers.losers[0].previousClose).toBeCloseTo(112.77);
  });

  it('fetches a batch one symbol at a time (Alpha Vantage has no multi-symbol quote)', async () => {
    server.route = ({ query }) => ({
      fixture: `alphavantage/${query.get('symbol') === 'IBM' ? 'global-quote-ibm.json' : 'global-quote-empty.json'}`,
    });
    const quotes = await sut.quotes(['IBM', 'ZZZZZZ']);
    expect(Object.keys(quotes)).toEqual(['IBM']);
    expect(server.requests).toHaveLength(2);
  });
});
