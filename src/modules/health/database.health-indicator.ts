import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DatabaseProbe } from '../../database/database-probe';

/**
 * Terminus' view of the database, pinged over the probe's own connection rather than TypeORM's
 * pool (TypeOrmHealthIndicator would queue behind the requests of a saturated pool).
 */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly probe: DatabaseProbe,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async pingCheck(key: string): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(key);
    return (await this.probe.reachable()) ? indicator.up() : indicator.down();
  }
}
