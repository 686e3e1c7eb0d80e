import { registerAs } from '@nestjs/config';
import {
  MARKET_DATA_PROVIDER_REGISTRY,
  MARKET_DATA_PROVIDERS,
  MarketDataProviderName,
  ProviderRegistration,
} from '../integrations/vendors';
import { IntVar, OneOfVar, readEnv, StringVar } from './env';
import { vendorKeyIsSet } from './vendors.config';

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
}

export const marketConfig = registerAs('market', () => {
  const env = readEnv(MarketEnv);
  const provider = env.MARKET_DATA_PROVIDER ?? 'replay';
  const fallbacks = parseFallbacks(env.MARKET_DATA_FALLBACK, provider);
  for (const name of [provider, ...fallbacks]) {
    const { apiKeyVariable }: ProviderRegistration<never, unknown> = MARKET_DATA_PROVIDER_REGISTRY[name];
    if (apiKeyVariable && !vendorKeyIsSet(apiKeyVariable)) {
      throw new Error(
        `Invalid environment configuration: ${apiKeyVariable} is required for the ${name} provider`,
      );
    }
  }
  return {
    provider,
    fallbacks,
    quoteTtlMs: (env.MARKET_DATA_CACHE_TTL_SECONDS ?? 60) * 1000,
    minIntervalMs: env.MARKET_DATA_MIN_INTERVAL_MS ?? 300,
    timeoutMs: env.MARKET_DATA_TIMEOUT_MS ?? 5000,
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
