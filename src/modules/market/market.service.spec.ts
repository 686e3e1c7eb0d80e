import { createCache } from 'cache-manager';
import { FakeClock } from '../../../test/fakes/clock';
import { RecordingMarketDataProvider } from '../../../test/fakes/recording-market-data-provider';
import { ProviderCallGateway, UnknownSymbolError, VendorUnavailableError } from '../../integrations/vendors';
import { MarketDataClient } from './market-data.client';
import { MarketService } from './market.service';

describe('MarketService', () => {
  const time = new FakeClock('2026-11-20T15:00:00Z');
  let vendor: RecordingMarketDataProvider;
  let sut: MarketService;

  beforeEach(() => {
    vendor = new RecordingMarketDataProvider('yahoo', true, { AAPL: 190 });
    const gateway = new ProviderCallGateway(createCache(), time, time, {
      maxRateLimitWaitMs: 0,
      maxRateLimitRetries: 0,
    });
    sut = new MarketService(
      new MarketDataClient([vendor], gateway, { quoteTtlMs: 0, minIntervalMs: 0 }),
      time,
    );
  });

  it('asks the configured provider for a profile, even of a symbol the replay ships', async () => {
    await expect(sut.getProfile(' aapl ')).resolves.toEqual({ symbol: 'AAPL', name: 'AAPL', sector: null });
    expect(vendor.requests).toEqual(['profile AAPL']);
  });

  it('turns an unknown symbol into a 404 and a failing provider into a 500, with the spec details', async () => {
    await expect(sut.getQuote('ZZZ')).rejects.toMatchObject({
      kind: 'not-found',
      detail: 'Stock ZZZ not found',
    });
    vendor.failure = new VendorUnavailableError('yahoo', 'HTTP 503');
    await expect(sut.getQuote('AAPL')).rejects.toMatchObject({
      kind: 'provider-unavailable',
      detail: 'Failed to retrieve stock data for AAPL',
    });
    await expect(sut.getBatch(Array.from({ length: 11 }, (_, i) => `S${i}`))).rejects.toMatchObject({
      kind: 'rule-violation',
      detail: 'Maximum 10 symbols allowed per batch request',
    });
  });

  it('refuses a history range that ends before it starts, naming the field', async () => {
    await expect(sut.getHistory('AAPL', { from: '2026-11-20', to: '2026-11-19' })).rejects.toMatchObject({
      kind: 'invalid-input',
      problems: [{ path: ['from'], message: 'from must not be after to' }],
    });
  });

  describe('daily closes of many symbols', () => {
    const gatewayOf = () =>
      new ProviderCallGateway(createCache(), time, time, { maxRateLimitWaitMs: 0, maxRateLimitRetries: 0 });
    const serviceOver = (provider: RecordingMarketDataProvider) =>
      new MarketService(
        new MarketDataClient([provider], gatewayOf(), { quoteTtlMs: 60_000, minIntervalMs: 0 }),
        time,
      );

    it('hands over the series a local provider answered as they are, and asks it only for the others', async () => {
      vendor.local = true;
      const local = serviceOver(vendor);
      const first = await local.getDailyCloses(['AAPL', ' msft '], '2026-01-02');
      expect([...first.keys()]).toEqual(['AAPL', ' msft ']);
      expect(first.get(' msft ')).toEqual([
        { date: '2026-01-02', open: 1, high: 1, low: 1, close: 1, volume: 1 },
      ]);
      vendor.failure = new UnknownSymbolError('ZZZ');
      const again = await local.getDailyCloses(['ZZZ', 'AAPL', 'MSFT'], '2026-01-02');
      expect([...again.entries()]).toEqual([
        ['ZZZ', []],
        ['AAPL', first.get('AAPL')],
        ['MSFT', first.get(' msft ')],
      ]);
      expect(again.get('AAPL')).toBe(first.get('AAPL'));
      expect(vendor.requests).toEqual(['history AAPL', 'history MSFT', 'history ZZZ']);
      // kept for the cache's time only
      time.advance(60_000);
      vendor.failure = new VendorUnavailableError('yahoo', 'HTTP 503');
      await expect(local.getDailyCloses(['AAPL'], '2026-01-02')).rejects.toMatchObject({
        kind: 'provider-unavailable',
        detail: 'Failed to retrieve price history for AAPL',
      });
    });

    it('asks a remote provider through its cache for every symbol, and nothing for a start after today', async () => {
      const remote = serviceOver(vendor);
      await remote.getDailyCloses(['AAPL', 'MSFT'], '2026-01-02');
      const again = await remote.getDailyCloses(['AAPL', 'MSFT'], '2026-01-02');
      expect(again.get('MSFT')).toHaveLength(1);
      expect(vendor.requests).toEqual(['history AAPL', 'history MSFT']);
      await expect(remote.getDailyCloses(['AAPL'], '2026-11-21')).resolves.toEqual(new Map([['AAPL', []]]));
      expect(vendor.requests).toHaveLength(2);
    });
  });
});
