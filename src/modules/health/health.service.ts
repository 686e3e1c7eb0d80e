import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Clock } from '../../common/clock/clock';
import { appConfig } from '../../config/app.config';
import { HealthResponse } from './health.response';

const DATABASE_PING_TIMEOUT_MS = 1500;

@Injectable()
export class HealthService {
  constructor(
    private readonly checks: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly clock: Clock,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
  ) {}

  async report(): Promise<HealthResponse> {
    const databaseUp = await this.checks
      .check([() => this.database.pingCheck('database', { timeout: DATABASE_PING_TIMEOUT_MS })])
      .then(() => true)
      .catch(() => false);
    return {
      status: databaseUp ? 'healthy' : 'unhealthy',
      timestamp: this.clock.now().toISOString(),
      services: {
        database: databaseUp ? 'connected' : 'disconnected',
        graph_database: 'not_configured',
        market_data: 'not_configured',
        ai_service: 'not_configured',
      },
      version: this.app.version,
    };
  }
}
