import { registerAs } from '@nestjs/config';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { blankToUndefined, numberOrUnset, readEnv } from './env';

export const NEWS_PROVIDERS = ['replay', 'newsapi', 'finnhub'] as const;
export type NewsProviderName = (typeof NEWS_PROVIDERS)[number];

const urlOptions = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

class NewsEnv {
  @IsOptional()
  @Transform(blankToUndefined)
  @IsIn(NEWS_PROVIDERS, { message: `NEWS_PROVIDER must be one of ${NEWS_PROVIDERS.join(', ')}` })
  NEWS_PROVIDER?: NewsProviderName;

  @IsOptional()
  @Transform(blankToUndefined)
  @IsString()
  NEWS_API_KEY?: string;

  @IsOptional()
  @Transform(blankToUndefined)
  @IsString()
  FINNHUB_API_KEY?: string;

  @IsOptional()
  @Transform(blankToUndefined)
  @IsUrl(urlOptions, { message: 'NEWS_API_BASE_URL must be an http(s) URL' })
  NEWS_API_BASE_URL?: string;

  @IsOptional()
  @Transform(blankToUndefined)
  @IsUrl(urlOptions, { message: 'FINNHUB_BASE_URL must be an http(s) URL' })
  FINNHUB_BASE_URL?: string;

  @IsOptional()
  @Transform(numberOrUnset)
  @IsInt({ message: 'NEWS_CACHE_TTL_SECONDS must be an integer' })
  @Min(0)
  @Max(86_400)
  NEWS_CACHE_TTL_SECONDS?: number;

  @IsOptional()
  @Transform(numberOrUnset)
  @IsInt({ message: 'NEWS_SEARCH_CACHE_TTL_SECONDS must be an integer' })
  @Min(0)
  @Max(86_400)
  NEWS_SEARCH_CACHE_TTL_SECONDS?: number;

  @IsOptional()
  @Transform(numberOrUnset)
  @IsInt({ message: 'NEWS_MIN_INTERVAL_MS must be an integer' })
  @Min(0)
  @Max(60_000)
  NEWS_MIN_INTERVAL_MS?: number;

  @IsOptional()
  @Transform(numberOrUnset)
  @IsInt({ message: 'NEWS_TIMEOUT_MS must be an integer' })
  @Min(100)
  @Max(60_000)
  NEWS_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(numberOrUnset)
  @IsInt({ message: 'NEWS_REPLAY_SESSIONS must be an integer' })
  @Min(1)
  @Max(20)
  NEWS_REPLAY_SESSIONS?: number;

  @IsOptional()
  @Transform(blankToUndefined)
  @IsUrl(urlOptions, { message: 'NEWS_WIRE_BASE_URL must be an http(s) URL' })
  NEWS_WIRE_BASE_URL?: string;

  @IsOptional()
  @Transform(numberOrUnset)
  @IsInt({ message: 'PORT must be an integer' })
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
