import { Global, Inject, Module, OnModuleInit } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { cacheConfig } from '../../config/cache.config';
import { ConsistentCache } from '../cache/consistent-cache';
import { MetricsController } from './metrics.controller';
import { Metrics } from './metrics';
import { MetricsExposure } from './metrics-exposure';
import { MetricsServer } from './metrics-server';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [Metrics, MetricsExposure, MetricsServer],
  exports: [Metrics],
})
export class MetricsModule implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: ConsistentCache,
    @Inject(cacheConfig.KEY) private readonly cacheSettings: ConfigType<typeof cacheConfig>,
  ) {}

  /** Gauges read at scrape time from the database pool and the shared cache. */
  onModuleInit(): void {
    const pool = () => (this.dataSource.driver as unknown as { master?: Pool }).master;
    this.metrics.gauge('db_pool_connections', 'Database pool connections, by state', ['state'], (gauge) => {
      const current = pool();
      if (!current) return;
      gauge.set({ state: 'total' }, current.totalCount);
      gauge.set({ state: 'idle' }, current.idleCount);
      gauge.set({ state: 'waiting' }, current.waitingCount);
    });
    // Registered only with Redis configured: prom-client reports an unlabelled gauge that was
    // never set as 0, which would read as "Redis down".
    if (!this.cacheSettings.redisUrl) return;
    this.metrics.gauge(
      'redis_up',
      'Whether Redis answers a ping (absent without REDIS_URL)',
      [],
      async (gauge) => {
        gauge.set((await this.cache.sharedStoreState()) === 'up' ? 1 : 0);
      },
    );
  }
}
