import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Clock } from '../../common/clock/clock';
import { appConfig } from '../../config/app.config';
import { MarketService } from '../market/market.service';
import { HealthResponse } from './health.response';

const DATABASE_PING_TIMEOUT_MS = 1500;

@Injectable()
export class HealthService {
  constructor(
    private readonly checks: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly clock: Clock,
    private readonly market: MarketService,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
  ) {}

  async report(): Promise<HealthResponse> {
    const [databaseUp, marketData] = await Promise.all([
      this.checks
        .check([() => this.database.pingCheck('database', { timeout: DATABASE_PING_TIMEOUT_MS })])
        .then(() => true)
        .catch(() => false),
      this.market.status(),
    ]);
    return {
      status: databaseUp ? 'healthy' : 'unhealthy',
      timestamp: this.clock.now().toISOString(),
      services: {
        database: databaseUp ? 'connected' : 'disconnected',
        graph_database: 'not_configured',
        market_data: marketData,
        ai_service: 'not_configured',
      },
      version: this.app.version,
    };
  }
}
