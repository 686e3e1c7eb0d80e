import { newsConfig } from './news.config';

describe('news configuration', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  function withEnv(env: Record<string, string>): void {
    for (const key of Object.keys(process.env)) {
      if (key.startsWith('NEWS_') || key.startsWith('FINNHUB_') || key === 'PORT') delete process.env[key];
    }
    Object.assign(process.env, env);
  }

  it('defaults to the offline wire with the spec cache times', () => {
    withEnv({});
    expect(newsConfig()).toEqual({
      provider: 'replay',
      newsTtlMs: 60_000,
      searchTtlMs: 300_000,
      minIntervalMs: 1_000,
      timeoutMs: 5_000,
      replaySessions: 5,
      wireBaseUrl: 'http://localhost:8000',
    });
  });

  it('reads the cache times, the port and the wire base url', () => {
    withEnv({ NEWS_SEARCH_CACHE_TTL_SECONDS: '600', NEWS_CACHE_TTL_SECONDS: '0', PORT: '9000' });
    expect(newsConfig()).toMatchObject({
      searchTtlMs: 600_000,
      newsTtlMs: 0,
      wireBaseUrl: 'http://localhost:9000',
    });
    withEnv({ NEWS_WIRE_BASE_URL: 'https://invest.example.com/' });
    expect(newsConfig().wireBaseUrl).toBe('https://invest.example.com');
  });

  it.each([
    [{ NEWS_PROVIDER: 'newsapi' }, 'NEWS_API_KEY is required for the newsapi news provider'],
    [{ NEWS_PROVIDER: 'finnhub' }, 'FINNHUB_API_KEY is required for the finnhub news provider'],
    [{ NEWS_PROVIDER: 'bloomberg' }, 'NEWS_PROVIDER must be one of replay, newsapi, finnhub'],
    [{ NEWS_SEARCH_CACHE_TTL_SECONDS: 'five' }, 'NEWS_SEARCH_CACHE_TTL_SECONDS must be an integer'],
    [{ NEWS_REPLAY_SESSIONS: '0' }, 'NEWS_REPLAY_SESSIONS'],
    [{ NEWS_WIRE_BASE_URL: 'invest.example.com' }, 'NEWS_WIRE_BASE_URL must be an http(s) URL'],
  ])('stops the boot on %j', (env, message) => {
    withEnv(env);
    expect(() => newsConfig()).toThrow(message);
  });

  it('accepts a vendor with its key', () => {
    withEnv({ NEWS_PROVIDER: 'newsapi', NEWS_API_KEY: 'k' });
    expect(newsConfig()).toMatchObject({ provider: 'newsapi' });
  });
});
