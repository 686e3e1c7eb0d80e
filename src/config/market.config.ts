import { registerAs } from '@nestjs/config';
import { HttpUrlVar, IntVar, OneOfVar, readEnv, StringVar } from './env';

export const MARKET_DATA_PROVIDERS = ['replay', 'yahoo', 'alphavantage', 'finnhub'] as const;
export type MarketDataProviderName = (typeof MARKET_DATA_PROVIDERS)[number];

class MarketEnv {
  @OneOfVar(MARKET_DATA_PROVIDERS)
  MARKET_DATA_PROVIDER?: MarketDataProviderName;

  @StringVar()
  MARKET_DATA_FALLBACK?: string;

  @IntVar({ min: 0, max: 86_400 })
  MARKET_DATA_CACHE_TTL_SECONDS?: number;

  @IntVar({ min: 0, max: 60_000 })
  MARKET_DATA_MIN_INTERVAL_MS?: number;

  @IntVar({ min: 100, max: 60_000 })
  MARKET_DATA_TIMEOUT_MS?: number;

  @StringVar()
  ALPHA_VANTAGE_API_KEY?: string;

  @StringVar()
  FINNHUB_API_KEY?: string;

  @HttpUrlVar()
  YAHOO_FINANCE_BASE_URL?: string;

  @HttpUrlVar()
  YAHOO_FINANCE_COOKIE_URL?: string;

  @HttpUrlVar()
  ALPHA_VANTAGE_BASE_URL?: string;

  @HttpUrlVar()
  FINNHUB_BASE_URL?: string;
}

export const marketConfig = registerAs('market', () => {
  const env = readEnv(MarketEnv);
  const provider = env.MARKET_DATA_PROVIDER ?? 'replay';
  const fallbacks = parseFallbacks(env.MARKET_DATA_FALLBACK, provider);
  const keys = { alphavantage: env.ALPHA_VANTAGE_API_KEY ?? null, finnhub: env.FINNHUB_API_KEY ?? null };
  for (const name of [provider, ...fallbacks]) {
    if (name === 'alphavantage' && !keys.alphavantage) {
      throw new Error(
        'Invalid environment configuration: ALPHA_VANTAGE_API_KEY is required for the alphavantage provider',
      );
    }
    if (name === 'finnhub' && !keys.finnhub) {
      throw new Error(
        'Invalid environment configuration: FINNHUB_API_KEY is required for the finnhub provider',
      );
    }
  }
  return {
    provider,
    fallbacks,
    quoteTtlMs: (env.MARKET_DATA_CACHE_TTL_SECONDS ?? 60) * 1000,
    minIntervalMs: env.MARKET_DATA_MIN_INTERVAL_MS ?? 300,
    timeoutMs: env.MARKET_DATA_TIMEOUT_MS ?? 5000,
    alphaVantage: {
      apiKey: keys.alphavantage,
      baseUrl: env.ALPHA_VANTAGE_BASE_URL ?? 'https://www.alphavantage.co',
    },
    finnhub: { apiKey: keys.finnhub, baseUrl: env.FINNHUB_BASE_URL ?? 'https://finnhub.io' },
    yahoo: {
      baseUrl: env.YAHOO_FINANCE_BASE_URL ?? 'https://query1.finance.yahoo.com',
      cookieUrl: env.YAHOO_FINANCE_COOKIE_URL ?? 'https://fc.yahoo.com',
    },
  };
});

export type MarketConfig = ReturnType<typeof marketConfig>;

function parseFallbacks(raw: string | undefined, primary: MarketDataProviderName): MarketDataProviderName[] {
  const names = (raw ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  for (const name of names) {
    if (!(MARKET_DATA_PROVIDERS as readonly string[]).includes(name)) {
      throw new Error(
        `Invalid environment configuration: MARKET_DATA_FALLBACK entry "${name}" is not one of ${MARKET_DATA_PROVIDERS.join(', ')}`,
      );
    }
  }
  return [...new Set(names as MarketDataProviderName[])].filter((name) => name !== primary);
}
