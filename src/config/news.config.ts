import { registerAs } from '@nestjs/config';
import {
  NEWS_PROVIDER_REGISTRY,
  NEWS_PROVIDERS,
  NewsProviderName,
  ProviderRegistration,
} from '../integrations/vendors';
import { HttpUrlVar, IntVar, OneOfVar, readEnv } from './env';
import { vendorKeyIsSet } from './vendors.config';

class NewsEnv {
  @OneOfVar(NEWS_PROVIDERS)
  NEWS_PROVIDER?: NewsProviderName;

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
  const { apiKeyVariable }: ProviderRegistration<never, unknown> = NEWS_PROVIDER_REGISTRY[provider];
  if (apiKeyVariable && !vendorKeyIsSet(apiKeyVariable)) {
    throw new Error(
      `Invalid environment configuration: ${apiKeyVariable} is required for the ${provider} news provider`,
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
  };
});

export type NewsConfig = ReturnType<typeof newsConfig>;
