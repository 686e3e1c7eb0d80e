import { HttpModule, HttpService } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/time/clock';
import { marketConfig } from '../../config/market.config';
import { vendorsConfig } from '../../config/vendors.config';
import {
  MARKET_DATA_PROVIDER_REGISTRY,
  MarketDataProvider,
  MarketDataProviderDependencies,
  ProviderRegistration,
  VendorsModule,
} from '../../integrations/vendors';
import { ReplayModule } from '../replay';
import {
  MARKET_DATA_CLIENT_OPTIONS,
  MARKET_DATA_PROVIDER_CHAIN,
  MarketDataClient,
} from './market-data.client';
import { MarketController } from './market.controller';
import { MarketService } from './market.service';
import { ReplayMarketDataProvider } from './providers/replay-market-data.provider';

@Module({
  imports: [
    VendorsModule,
    ReplayModule,
    HttpModule.registerAsync({
      inject: [marketConfig.KEY],
      useFactory: (config: ConfigType<typeof marketConfig>) => ({ timeout: config.timeoutMs }),
    }),
  ],
  controllers: [MarketController],
  providers: [
    ReplayMarketDataProvider,
    {
      provide: MARKET_DATA_PROVIDER_CHAIN,
      inject: [marketConfig.KEY, vendorsConfig.KEY, ReplayMarketDataProvider, HttpService, Clock],
      useFactory: (
        config: ConfigType<typeof marketConfig>,
        vendors: ConfigType<typeof vendorsConfig>,
        replay: ReplayMarketDataProvider,
        http: HttpService,
        clock: Clock,
      ): MarketDataProvider[] =>
        [config.provider, ...config.fallbacks].map((name) => {
          const registration: ProviderRegistration<MarketDataProviderDependencies, MarketDataProvider> =
            MARKET_DATA_PROVIDER_REGISTRY[name];
          return registration.create({ http, vendors, replay, now: () => clock.now() });
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
  exports: [MarketService],
})
export class MarketModule {}
