import { HttpModule } from '@nestjs/axios';
import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Module } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { Cache } from 'cache-manager';
import { Clock } from '../../common/clock/clock';
import { marketConfig } from '../../config/market.config';
import { ProviderCallGateway } from './gateway/provider-call-gateway';
import { Sleeper, TimerSleeper } from './gateway/sleeper';
import {
  MARKET_DATA_CLIENT_OPTIONS,
  MARKET_DATA_PROVIDER_CHAIN,
  MarketDataClient,
} from './market-data.client';
import { MarketController } from './market.controller';
import { MarketService } from './market.service';
import { MarketDataProvider } from './providers/market-data.provider';
import { ReplayDataSource } from './providers/replay/replay-data.source';
import { ReplayMarketDataProvider } from './providers/replay/replay-market-data.provider';

/** A rate limit asking for more than this is not waited out in a request: it fails over instead. */
const MAX_RATE_LIMIT_WAIT_MS = 2_000;

@Module({
  imports: [
    HttpModule.registerAsync({
      inject: [marketConfig.KEY],
      useFactory: (config: ConfigType<typeof marketConfig>) => ({ timeout: config.timeoutMs }),
    }),
  ],
  controllers: [MarketController],
  providers: [
    { provide: Sleeper, useClass: TimerSleeper },
    {
      provide: ProviderCallGateway,
      inject: [CACHE_MANAGER, Clock, Sleeper],
      useFactory: (cache: Cache, clock: Clock, sleeper: Sleeper) =>
        new ProviderCallGateway(cache, clock, sleeper, {
          maxRateLimitWaitMs: MAX_RATE_LIMIT_WAIT_MS,
          maxRateLimitRetries: 1,
        }),
    },
    ReplayDataSource,
    ReplayMarketDataProvider,
    {
      provide: MARKET_DATA_PROVIDER_CHAIN,
      inject: [marketConfig.KEY, ReplayMarketDataProvider],
      useFactory: (
        config: ConfigType<typeof marketConfig>,
        replay: ReplayMarketDataProvider,
      ): MarketDataProvider[] => {
        const byName: Record<string, MarketDataProvider> = { replay };
        return [config.provider, ...config.fallbacks].map((name) => {
          const provider = byName[name];
          if (!provider) throw new Error(`market data provider ${name} is not available`);
          return provider;
        });
      },
    },
    {
      provide: MARKET_DATA_CLIENT_OPTIONS,
      inject: [marketConfig.KEY],
      useFactory: (config: ConfigType<typeof marketConfig>) => ({
        quoteTtlMs: config.quoteTtlMs,
        minIntervalMs: config.minIntervalMs,
      }),
    },
    MarketDataClient,
    MarketService,
  ],
  exports: [MarketService, ProviderCallGateway],
})
export class MarketModule {}
