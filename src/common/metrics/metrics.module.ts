import { Global, Inject, Module, OnModuleInit } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { cacheConfig } from '../../config/cache.config';
import { DatabasePool } from '../../database/database-pool';
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
    private readonly pool: DatabasePool,
    private readonly cache: ConsistentCache,
    @Inject(cacheConfig.KEY) private readonly cacheSettings: ConfigType<typeof cacheConfig>,
  ) {}

  /** Gauges read at scrape time from the database pool and the shared cache. */
  onModuleInit(): void {
    this.metrics.gauge('db_pool_connections', 'Database pool connections, by state', ['state'], (gauge) => {
      const state = this.pool.state();
      if (!state) return;
      gauge.set({ state: 'total' }, state.total);
      gauge.set({ state: 'idle' }, state.idle);
      gauge.set({ state: 'waiting' }, state.waiting);
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
