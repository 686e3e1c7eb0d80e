import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { HealthCheckService } from '@nestjs/terminus';
import { ConsistentCache } from '../../common/cache/consistent-cache';
import { Clock } from '../../common/time/clock';
import { DrainState } from '../../common/lifecycle/drain-state';
import { appConfig } from '../../config/app.config';
import { AiStatus } from '../ai-status';
import { GraphService } from '../graph';
import { MarketService } from '../market';
import { DatabaseHealthIndicator } from './database.health-indicator';
import { HealthResponse } from './health.response';
import { ReadinessResponse } from './probe.response';

@Injectable()
export class HealthService {
  constructor(
    private readonly checks: HealthCheckService,
    private readonly database: DatabaseHealthIndicator,
    private readonly cache: ConsistentCache,
    private readonly drain: DrainState,
    private readonly clock: Clock,
    private readonly market: MarketService,
    private readonly ai: AiStatus,
    private readonly graph: GraphService,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
  ) {}

  async report(): Promise<HealthResponse> {
    const [databaseUp, marketData, graph] = await Promise.all([
      this.databaseUp(),
      this.market.status(),
      this.graph.health(),
    ]);
    return {
      status: databaseUp ? 'healthy' : 'unhealthy',
      timestamp: this.clock.now().toISOString(),
      services: {
        database: databaseUp ? 'connected' : 'disconnected',
        graph_database: graph,
        market_data: marketData,
        ai_service: this.ai.status(),
      },
      version: this.app.version,
    };
  }

  /** Redis is not required: without it auth state and caches are read from the database. */
  async readiness(): Promise<ReadinessResponse> {
    const draining = this.drain.draining;
    const [databaseUp, redis] = await Promise.all([this.databaseUp(), this.cache.sharedStoreState()]);
    return {
      status: databaseUp && !draining ? 'ready' : 'not_ready',
      checks: { database: databaseUp ? 'up' : 'down', redis, draining },
    };
  }

  private databaseUp(): Promise<boolean> {
    return this.checks
      .check([() => this.database.pingCheck('database')])
      .then(() => true)
      .catch(() => false);
  }
}
