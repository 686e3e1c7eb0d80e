import { registerAs } from '@nestjs/config';
import { Transform } from 'class-transformer';
import { IsOptional, Matches } from 'class-validator';
import { blankToUndefined, readEnv } from './env';

class CacheEnv {
  @IsOptional()
  @Transform(blankToUndefined)
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsOptional()
  @Transform(blankToUndefined)
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, {
    message: 'CACHE_NAMESPACE must be 1-64 letters, digits, ":", "_" or "-"',
  })
  CACHE_NAMESPACE?: string;
}

export const cacheConfig = registerAs('cache', () => {
  const env = readEnv(CacheEnv);
  return {
    redisUrl: env.REDIS_URL ?? null,
    namespace: env.CACHE_NAMESPACE ?? 'investment-assistant',
    memoryMaxEntries: 50_000,
  };
});
