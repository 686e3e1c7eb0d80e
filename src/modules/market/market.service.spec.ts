import { createCache } from 'cache-manager';
import { FakeClock } from '../../../test/fakes/clock';
import { RecordingMarketDataProvider } from '../../../test/fakes/recording-market-data-provider';
import { ProviderCallGateway, VendorUnavailableError } from '../../integrations/vendors';
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
});
