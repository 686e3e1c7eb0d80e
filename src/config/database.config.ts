import { registerAs } from '@nestjs/config';
import { Transform } from 'class-transformer';
import { IsOptional, Matches } from 'class-validator';
import { blankToUndefined, IntVar, readEnv } from './env';

class DatabaseEnv {
  @IsOptional()
  @Transform(blankToUndefined)
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @IntVar({ min: 1, max: 500 })
  DB_POOL_SIZE?: number;

  @IntVar({ min: 100, max: 60_000 })
  DB_CONNECT_TIMEOUT_MS?: number;

  @IntVar({ min: 100, max: 60_000 })
  DB_ACQUIRE_TIMEOUT_MS?: number;

  @IntVar({ min: 0, max: 100_000 })
  DB_POOL_MAX_WAITING?: number;

  @IntVar({ min: 100, max: 600_000 })
  DB_STATEMENT_TIMEOUT_MS?: number;
}

export const databaseConfig = registerAs('database', () => {
  const env = readEnv(DatabaseEnv);
  return {
    url: env.DATABASE_URL ?? null,
    pool: {
      size: env.DB_POOL_SIZE ?? 10,
      connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS ?? 2_000,
      acquireTimeoutMs: env.DB_ACQUIRE_TIMEOUT_MS ?? 2_000,
      maxWaiting: env.DB_POOL_MAX_WAITING ?? 100,
      statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS ?? 5_000,
    },
  };
});
