import { marketConfig } from './market.config';

describe('marketConfig', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  const load = (env: Record<string, string>) => {
    process.env = { ...saved, ...env };
    return marketConfig();
  };

  it('defaults to the offline replay, 60 s cache, 0.3 s pacing and a 5 s timeout', () => {
    expect(
      load({
        MARKET_DATA_PROVIDER: '',
        MARKET_DATA_FALLBACK: '',
        MARKET_DATA_CACHE_TTL_SECONDS: '',
        MARKET_DATA_MIN_INTERVAL_MS: '',
        MARKET_DATA_TIMEOUT_MS: '',
      }),
    ).toMatchObject({
      provider: 'replay',
      fallbacks: [],
      quoteTtlMs: 60_000,
      minIntervalMs: 300,
      timeoutMs: 5_000,
    });
  });

  it('reads the fallback list in order, without the primary or repeats', () => {
    expect(
      load({ MARKET_DATA_PROVIDER: 'yahoo', MARKET_DATA_FALLBACK: ' Replay, yahoo ,replay' }).fallbacks,
    ).toEqual(['replay']);
  });

  it.each([
    [
      { MARKET_DATA_PROVIDER: 'bloomberg' },
      'MARKET_DATA_PROVIDER must be one of replay, yahoo, alphavantage, finnhub',
    ],
    [{ MARKET_DATA_FALLBACK: 'replay,iex' }, 'MARKET_DATA_FALLBACK entry "iex" is not one of'],
    [
      { MARKET_DATA_PROVIDER: 'alphavantage', ALPHA_VANTAGE_API_KEY: '' },
      'ALPHA_VANTAGE_API_KEY is required',
    ],
    [{ MARKET_DATA_FALLBACK: 'finnhub', FINNHUB_API_KEY: '' }, 'FINNHUB_API_KEY is required'],
    [{ MARKET_DATA_CACHE_TTL_SECONDS: 'soon' }, 'MARKET_DATA_CACHE_TTL_SECONDS must be an integer'],
  ])('stops the boot on %p', (env, message) => {
    expect(() => load({ MARKET_DATA_PROVIDER: '', MARKET_DATA_FALLBACK: '', ...env })).toThrow(message);
  });
});
