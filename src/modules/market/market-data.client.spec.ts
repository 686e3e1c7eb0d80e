import { createCache } from 'cache-manager';
import { FakeClock } from '../../../test/fakes/clock';
import { RecordingMarketDataProvider } from '../../../test/fakes/recording-market-data-provider';
import {
  MarketDataProvider,
  ProviderCallGateway,
  ProviderResponseError,
  UnknownSymbolError,
  VendorUnavailableError,
} from '../../integrations/vendors';
import { Metrics } from '../../common/metrics/metrics';
import { MarketDataClient } from './market-data.client';

describe('MarketDataClient', () => {
  let time: FakeClock;
  let gateway: ProviderCallGateway;

  beforeEach(() => {
    time = new FakeClock('2026-11-20T15:00:00Z');
    gateway = new ProviderCallGateway(createCache(), time, time, {
      maxRateLimitWaitMs: 2_000,
      maxRateLimitRetries: 1,
    });
  });

  const clientOf = (...providers: MarketDataProvider[]): MarketDataClient =>
    new MarketDataClient(providers, gateway, { quoteTtlMs: 60_000, minIntervalMs: 300 });
  /** For tests about something else than pacing: consecutive calls need no fake time to pass. */
  const unpacedClientOf = (...providers: MarketDataProvider[]): MarketDataClient =>
    new MarketDataClient(providers, gateway, { quoteTtlMs: 60_000, minIntervalMs: 0 });

  it('answers ten concurrent cold quotes for one symbol with one provider call', async () => {
    const vendor = new RecordingMarketDataProvider('vendor', false, { AAPL: 100 });
    const sut = clientOf(vendor);
    const quotes = await Promise.all(Array.from({ length: 10 }, () => sut.quote('AAPL')));
    expect(vendor.requests).toEqual(['quote AAPL']);
    expect(quotes.every((quote) => quote.price === 100)).toBe(true);
  });

  it("hands over a local primary's fresh quote without asking it again, counted as a provider-cache hit", async () => {
    const metrics = new Metrics();
    gateway = new ProviderCallGateway(
      createCache(),
      time,
      time,
      { maxRateLimitWaitMs: 0, maxRateLimitRetries: 0 },
      metrics,
    );
    const replay = new RecordingMarketDataProvider('replay', false, { MSFT: 400 });
    replay.local = true;
    const sut = clientOf(replay, new RecordingMarketDataProvider('vendor', false, { MSFT: 1 }));
    const first = await sut.quote('MSFT');
    expect(await sut.quote('MSFT')).toBe(first);
    time.advance(60_000);
    expect((await sut.quote('MSFT')).price).toBe(400);
    expect(replay.requests).toEqual(['quote MSFT', 'quote MSFT']);
    const lookups = (await metrics.providerCache.get()).values.map(({ labels, value }) => [
      labels.result,
      value,
    ]);
    expect(Object.fromEntries(lookups)).toEqual({ hit: 1, miss: 2 });
  });

  it('asks a batch provider once for a batch of 10, and reuses those quotes for single calls', async () => {
    const symbols = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'ZZZ'];
    const vendor = new RecordingMarketDataProvider(
      'vendor',
      true,
      Object.fromEntries(symbols.slice(0, 9).map((s) => [s, 10])),
    );
    const sut = unpacedClientOf(vendor);
    const batch = await sut.quotes(symbols);
    expect(vendor.requests).toEqual([`quotes ${symbols.join(',')}`]);
    expect(batch.get('ZZZ')).toBe('unknown');
    expect(batch.get('A')).toMatchObject({ price: 10 });
    await sut.quote('C');
    await sut.quotes(['A', 'B']);
    expect(vendor.requests).toHaveLength(1);
  });

  it('asks a provider without a batch call per missing symbol, paced 0.3 s apart', async () => {
    const vendor = new RecordingMarketDataProvider('vendor', false, { A: 1, B: 2 });
    const sut = clientOf(vendor);
    const starts: number[] = [];
    const quote = vendor.quote.bind(vendor);
    vendor.quote = (symbol: string) => {
      starts.push(time.elapsedMs());
      return quote(symbol);
    };
    const pending = sut.quotes(['A', 'B', 'ZZZ']);
    await time.runTimers();
    const batch = await pending;
    expect(starts).toEqual([0, 300, 600]);
    expect([batch.get('A'), batch.get('B'), batch.get('ZZZ')]).toEqual([
      expect.objectContaining({ price: 1 }),
      expect.objectContaining({ price: 2 }),
      'unknown',
    ]);
  });

  it('falls back in the configured order on retryable failures', async () => {
    const primary = new RecordingMarketDataProvider('primary', true, { AAPL: 1 });
    const second = new RecordingMarketDataProvider('second', true, { AAPL: 2 });
    const third = new RecordingMarketDataProvider('third', true, { AAPL: 3 });
    primary.failure = new VendorUnavailableError('primary', 'HTTP 503');
    second.failure = new VendorUnavailableError('second', 'HTTP 429', 60_000);
    const sut = clientOf(primary, second, third);
    expect(await sut.quote('AAPL')).toMatchObject({ name: 'third AAPL' });
    expect([primary.requests, second.requests, third.requests]).toEqual([
      ['quote AAPL'],
      ['quote AAPL'],
      ['quote AAPL'],
    ]);
  });

  it('does not fall back for an unknown symbol or a non-retryable error', async () => {
    const primary = new RecordingMarketDataProvider('primary', true, {});
    const second = new RecordingMarketDataProvider('second', true, { ZZZ: 2 });
    const sut = unpacedClientOf(primary, second);
    await expect(sut.quote('ZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
    primary.failure = new ProviderResponseError('primary', 'HTTP 401');
    await expect(sut.quote('ZZZ')).rejects.toBeInstanceOf(ProviderResponseError);
    expect(second.requests).toEqual([]);
  });

  it('fails with the last provider error when every provider is down', async () => {
    const primary = new RecordingMarketDataProvider('primary', true, {});
    const second = new RecordingMarketDataProvider('second', true, {});
    primary.failure = new VendorUnavailableError('primary', 'ETIMEDOUT');
    second.failure = new VendorUnavailableError('second', 'ECONNREFUSED');
    await expect(clientOf(primary, second).movers(5)).rejects.toThrow('second: ECONNREFUSED');
  });

  it('caches history, profiles and searches through the gateway', async () => {
    const vendor = new RecordingMarketDataProvider('vendor', true, {});
    const sut = unpacedClientOf(vendor);
    for (let i = 0; i < 2; i += 1) {
      await sut.dailyHistory('AAPL', '2026-01-01', '2026-02-01');
      await sut.profile('AAPL');
      await sut.search('apple', 10);
    }
    expect(vendor.requests).toEqual(['history AAPL', 'profile AAPL', 'search apple']);
  });
});
