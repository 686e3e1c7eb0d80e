import { vendorsConfig } from './vendors.config';

describe('vendorsConfig', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  function withEnv(env: Record<string, string>): void {
    for (const key of Object.keys(process.env)) {
      if (/^(YAHOO_FINANCE|ALPHA_VANTAGE|FINNHUB|NEWS_API)_/.test(key)) delete process.env[key];
    }
    Object.assign(process.env, env);
  }

  it("defaults to each vendor's public address, without keys", () => {
    withEnv({});
    expect(vendorsConfig()).toEqual({
      yahoo: { baseUrl: 'https://query1.finance.yahoo.com', cookieUrl: 'https://fc.yahoo.com' },
      alphaVantage: { apiKey: null, baseUrl: 'https://www.alphavantage.co' },
      finnhub: { apiKey: null, baseUrl: 'https://finnhub.io' },
      newsApi: { apiKey: null, baseUrl: 'https://newsapi.org' },
    });
  });

  it('reads each key and address once, for market data and news alike', () => {
    withEnv({ FINNHUB_API_KEY: 'token', FINNHUB_BASE_URL: 'http://127.0.0.1:9999', NEWS_API_KEY: ' ' });
    expect(vendorsConfig()).toMatchObject({
      finnhub: { apiKey: 'token', baseUrl: 'http://127.0.0.1:9999' },
      newsApi: { apiKey: null },
    });
  });

  it.each([
    [{ YAHOO_FINANCE_BASE_URL: 'query1.finance.yahoo.com' }, 'YAHOO_FINANCE_BASE_URL must be an http(s) URL'],
    [{ FINNHUB_BASE_URL: 'finnhub.io' }, 'FINNHUB_BASE_URL must be an http(s) URL'],
  ])('stops the boot on %p', (env, message) => {
    withEnv(env);
    expect(() => vendorsConfig()).toThrow(message);
  });
});
