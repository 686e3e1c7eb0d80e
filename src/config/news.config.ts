import { registerAs } from '@nestjs/config';
import { HttpUrlVar, IntVar, OneOfVar, readEnv, StringVar } from './env';

export const NEWS_PROVIDERS = ['replay', 'newsapi', 'finnhub'] as const;
export type NewsProviderName = (typeof NEWS_PROVIDERS)[number];

class NewsEnv {
  @OneOfVar(NEWS_PROVIDERS)
  NEWS_PROVIDER?: NewsProviderName;

  @StringVar()
  NEWS_API_KEY?: string;

  @StringVar()
  FINNHUB_API_KEY?: string;

  @HttpUrlVar()
  NEWS_API_BASE_URL?: string;

  @HttpUrlVar()
  FINNHUB_BASE_URL?: string;

  @IntVar({ min: 0, max: 86_400 })
  NEWS_CACHE_TTL_SECONDS?: number;

  @IntVar({ min: 0, max: 86_400 })
  NEWS_SEARCH_CACHE_TTL_SECONDS?: number;

  @IntVar({ min: 0, max: 60_000 })
  NEWS_MIN_INTERVAL_MS?: number;

  @IntVar({ min: 100, max: 60_000 })
  NEWS_TIMEOUT_MS?: number;

  @IntVar({ min: 1, max: 20 })
  NEWS_REPLAY_SESSIONS?: number;

  @HttpUrlVar()
  NEWS_WIRE_BASE_URL?: string;

  @IntVar()
  PORT?: number;
}

export const newsConfig = registerAs('news', () => {
  const env = readEnv(NewsEnv);
  const provider = env.NEWS_PROVIDER ?? 'replay';
  if (provider === 'newsapi' && !env.NEWS_API_KEY) {
    throw new Error(
      'Invalid environment configuration: NEWS_API_KEY is required for the newsapi news provider',
    );
  }
  if (provider === 'finnhub' && !env.FINNHUB_API_KEY) {
    throw new Error(
      'Invalid environment configuration: FINNHUB_API_KEY is required for the finnhub news provider',
    );
  }
  return {
    provider,
    newsTtlMs: (env.NEWS_CACHE_TTL_SECONDS ?? 60) * 1000,
    searchTtlMs: (env.NEWS_SEARCH_CACHE_TTL_SECONDS ?? 300) * 1000,
    /** Finnhub's free plan allows 60 calls a minute, shared with market data under the same key. */
    minIntervalMs: env.NEWS_MIN_INTERVAL_MS ?? 1000,
    timeoutMs: env.NEWS_TIMEOUT_MS ?? 5000,
    replaySessions: env.NEWS_REPLAY_SESSIONS ?? 5,
    wireBaseUrl: (env.NEWS_WIRE_BASE_URL ?? `http://localhost:${env.PORT ?? 8000}`).replace(/\/+$/, ''),
    newsApi: {
      apiKey: env.NEWS_API_KEY ?? null,
      baseUrl: env.NEWS_API_BASE_URL ?? 'https://newsapi.org',
    },
    finnhub: {
      apiKey: env.FINNHUB_API_KEY ?? null,
      baseUrl: env.FINNHUB_BASE_URL ?? 'https://finnhub.io',
    },
  };
});

export type NewsConfig = ReturnType<typeof newsConfig>;
