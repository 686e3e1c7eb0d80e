import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ClientConfig, Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * The application's `pg` pool as the parts that need it directly see it: its state for the
 * metrics, plain statements for the job runner (pg-boss brings its own SQL), and the connection
 * settings for a dedicated connection (LISTEN). The one place that reaches into TypeORM's driver.
 */
@Injectable()
export class DatabasePool {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get pool(): Pool | undefined {
    return (this.dataSource.driver as PostgresDriver).master as Pool | undefined;
  }

  /** Connections by state; null before the pool exists or after it has closed. */
  state(): PoolState | null {
    const pool = this.pool;
    return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
  }

  /** A statement on a pooled connection, outside any unit of work (for a library that brings its own SQL). */
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    if (!this.pool) return Promise.reject(new Error('The database pool is not open'));
    return this.pool.query(text, values);
  }

  /** Settings for a connection of one's own to the same database, without the pool's query deadlines. */
  connectionSettings(): ClientConfig {
    const {
      statement_timeout: _statementTimeout,
      query_timeout: _queryTimeout,
      ...settings
    } = (
      this.pool as unknown as {
        options: ClientConfig & { statement_timeout?: number; query_timeout?: number };
      }
    ).options;
    return settings;
  }
}
