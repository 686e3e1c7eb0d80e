import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { BoundedPoolOptions } from './bounded-pool';
import { boundedPg } from './bounded-pool';
import type { EmbeddedPostgres } from './embedded-postgres';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** How the pool waits and bounds its work; see docs/operations.md. */
export interface PoolLimits {
  size: number;
  connectTimeoutMs: number;
  acquireTimeoutMs: number;
  maxWaiting: number;
  statementTimeoutMs: number;
}

/** For the migration CLI: no request traffic to protect, and a migration may run long. */
export const DEFAULT_POOL_LIMITS: PoolLimits = {
  size: 2,
  connectTimeoutMs: 10_000,
  acquireTimeoutMs: 10_000,
  maxWaiting: 100,
  statementTimeoutMs: 600_000,
};

/**
 * The server cancels a statement after `statement_timeout`; the client gives up this much later,
 * for a server it cannot hear from at all (a network partition).
 */
const CLIENT_DEADLINE_MARGIN_MS = 1_000;

/** The options shared by the app and the migration CLI: PostgreSQL, migrations, no synchronize. */
export function dataSourceOptions(
  target: { url: string } | EmbeddedPostgres['connection'],
  limits: PoolLimits = DEFAULT_POOL_LIMITS,
): DataSourceOptions {
  const pool: BoundedPoolOptions = {
    max: limits.size,
    connectionTimeoutMillis: limits.acquireTimeoutMs,
    connectTimeoutMillis: limits.connectTimeoutMs,
    maxWaiting: limits.maxWaiting,
    statement_timeout: limits.statementTimeoutMs,
    query_timeout: limits.statementTimeoutMs + CLIENT_DEADLINE_MARGIN_MS,
    keepAlive: true,
  };
  return {
    type: 'postgres',
    ...target,
    driver: boundedPg,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTransactionMode: 'each',
    extra: pool,
  };
}
