import { registerAs } from '@nestjs/config';
import { IntVar, readEnv } from './env';

class RateLimitEnv {
  @IntVar({ min: 1, max: 3_600 })
  AUTH_RATE_WINDOW_SECONDS?: number;

  @IntVar({ min: 1, max: 1_000_000 })
  AUTH_RATE_LIMIT_PER_IP?: number;

  @IntVar({ min: 1, max: 10_000_000 })
  AUTH_RATE_LIMIT_GLOBAL?: number;
}

/** Limits on login and register (each counted on its own), per client address and for all clients. */
export const rateLimitConfig = registerAs('rateLimit', () => {
  const env = readEnv(RateLimitEnv);
  return {
    windowSeconds: env.AUTH_RATE_WINDOW_SECONDS ?? 60,
    perIp: env.AUTH_RATE_LIMIT_PER_IP ?? 30,
    global: env.AUTH_RATE_LIMIT_GLOBAL ?? 600,
  };
});
