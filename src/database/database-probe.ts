import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { boundedPg } from './bounded-pool';

/** The parts of TypeORM's PostgreSQL options that say where the server is. */
interface ConnectionTarget {
  url?: string;
  host?: string;
  port?: number;
  username?: string;
  password?: unknown;
  database?: string;
}

/** A health probe gives up after this; a database slower than that is not ready for traffic. */
const PROBE_TIMEOUT_MS = 1_000;

/**
 * Pings the database over a connection of its own, outside the request pool: a pool saturated by
 * slow requests still serves, and must not make the instance look down.
 */
@Injectable()
export class DatabaseProbe implements OnApplicationShutdown {
  private pool: Pool | null = null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async reachable(): Promise<boolean> {
    if (!this.dataSource.isInitialized) return false;
    try {
      await this.probePool().query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.end();
    this.pool = null;
  }

  private probePool(): Pool {
    if (this.pool) return this.pool;
    const options = this.dataSource.options as ConnectionTarget;
    this.pool = new boundedPg.Pool({
      connectionString: options.url,
      host: options.host,
      port: options.port,
      user: options.username,
      password: typeof options.password === 'string' ? options.password : undefined,
      database: options.database,
      max: 1,
      maxWaiting: 4,
      connectionTimeoutMillis: PROBE_TIMEOUT_MS,
      connectTimeoutMillis: PROBE_TIMEOUT_MS,
      query_timeout: PROBE_TIMEOUT_MS,
      keepAlive: true,
    } as ConstructorParameters<typeof boundedPg.Pool>[0]);
    // A dropped idle connection is replaced on the next probe; it is no reason to crash.
    this.pool.on('error', () => undefined);
    return this.pool;
  }
}
