import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Module } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { Metrics } from '../../common/metrics/metrics';
import { Clock } from '../../common/time/clock';
import { Sleeper, TimerSleeper } from '../../common/time/sleeper';
import { ProviderCallGateway } from './gateway/provider-call-gateway';

/** A rate limit asking for more than this is not waited out in a request: it fails over instead. */
const MAX_RATE_LIMIT_WAIT_MS = 2_000;

/**
 * The one provider-call gateway every provider is called through: market data and news share its
 * cache, pacing (Finnhub's key serves both) and single-flight.
 */
@Module({
  providers: [
    { provide: Sleeper, useClass: TimerSleeper },
    {
      provide: ProviderCallGateway,
      inject: [CACHE_MANAGER, Clock, Sleeper, Metrics],
      useFactory: (cache: Cache, clock: Clock, sleeper: Sleeper, metrics: Metrics) =>
        new ProviderCallGateway(
          cache,
          clock,
          sleeper,
          { maxRateLimitWaitMs: MAX_RATE_LIMIT_WAIT_MS, maxRateLimitRetries: 1 },
          metrics,
        ),
    },
  ],
  exports: [ProviderCallGateway],
})
export class VendorsModule {}
