import { HttpModule, HttpService } from '@nestjs/axios';
import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Module } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { Cache } from 'cache-manager';
import { Metrics } from '../../common/metrics/metrics';
import { Clock } from '../../common/time/clock';
import { marketConfig } from '../../config/market.config';
import { ProviderCallGateway } from '../../integrations/vendors/gateway/provider-call-gateway';
import { Sleeper, TimerSleeper } from '../../common/time/sleeper';
import {
  MARKET_DATA_CLIENT_OPTIONS,
  MARKET_DATA_PROVIDER_CHAIN,
  MarketDataClient,
} from './market-data.client';
import { MarketController } from './market.controller';
import { MarketService } from './market.service';
import { AlphaVantageMarketDataProvider } from '../../integrations/vendors/alphavantage/alpha-vantage-market-data.provider';
import { FinnhubMarketDataProvider } from '../../integrations/vendors/finnhub/finnhub-market-data.provider';
import { MarketDataProvider } from '../../integrations/vendors/market-data.provider';
import { ReplayDataSource } from '../replay/replay.service';
import { ReplayMarketDataProvider } from './providers/replay-market-data.provider';
import { YahooMarketDataProvider } from '../../integrations/vendors/yahoo/yahoo-market-data.provider';

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
    ReplayDataSource,
    ReplayMarketDataProvider,
    {
      provide: MARKET_DATA_PROVIDER_CHAIN,
      inject: [marketConfig.KEY, ReplayMarketDataProvider, HttpService, Clock],
      useFactory: (
        config: ConfigType<typeof marketConfig>,
        replay: ReplayMarketDataProvider,
        http: HttpService,
        clock: Clock,
      ): MarketDataProvider[] =>
        [config.provider, ...config.fallbacks].map((name): MarketDataProvider => {
          switch (name) {
            case 'replay':
              return replay;
            case 'yahoo':
              return new YahooMarketDataProvider(http, config.yahoo);
            case 'alphavantage':
              return new AlphaVantageMarketDataProvider(
                http,
                { apiKey: config.alphaVantage.apiKey!, baseUrl: config.alphaVantage.baseUrl },
                () => clock.now(),
              );
            case 'finnhub':
              return new FinnhubMarketDataProvider(http, {
                apiKey: config.finnhub.apiKey!,
                baseUrl: config.finnhub.baseUrl,
              });
          }
        }),
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
