import { registerAs } from '@nestjs/config';
import { IntVar, readEnv } from './env';

class RateLimitEnv {
  @IntVar({ min: 1, max: 3_600 })
  AUTH_RATE_WINDOW_SECONDS?: number;

  @IntVar({ min: 1, max: 1_000_000 })
  AUTH_RATE_LIMIT_PER_IP?: number;

  @IntVar({ min: 1, max: 10_000_000 })
  AUTH_RATE_LIMIT_GLOBAL?: number;

  @IntVar({ min: 1, max: 1_000_000 })
  AUTH_REFRESH_RATE_LIMIT_PER_IP?: number;
}

/** The routes counted by `@RateLimited(bucket)`, each on its own. */
export type RateLimitBucket = 'login' | 'register' | 'refresh';

export interface BucketLimits {
  perIp: number;
  /** For all clients together; null: no shared limit. */
  global: number | null;
}

/**
 * Login and register are limited per client address and for all clients (the shared limit caps
 * the argon2 work); refresh per address only, so that no set of addresses can stop everyone's
 * sessions from refreshing.
 */
export const rateLimitConfig = registerAs('rateLimit', () => {
  const env = readEnv(RateLimitEnv);
  const credentials: BucketLimits = {
    perIp: env.AUTH_RATE_LIMIT_PER_IP ?? 30,
    global: env.AUTH_RATE_LIMIT_GLOBAL ?? 600,
  };
  const buckets: Record<RateLimitBucket, BucketLimits> = {
    login: credentials,
    register: credentials,
    refresh: { perIp: env.AUTH_REFRESH_RATE_LIMIT_PER_IP ?? 60, global: null },
  };
  return { windowSeconds: env.AUTH_RATE_WINDOW_SECONDS ?? 60, buckets };
});
