import { HttpModule, HttpService } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/time/clock';
import { newsConfig } from '../../config/news.config';
import { vendorsConfig } from '../../config/vendors.config';
import {
  createSocialSentimentProvider,
  NEWS_PROVIDER_REGISTRY,
  NewsProvider,
  NewsProviderDependencies,
  ProviderRegistration,
  SocialSentimentProvider,
  VendorsModule,
} from '../../integrations/vendors';
import { MarketModule, MarketService } from '../market';
import { ReplayModule } from '../replay';
import { MarketNewsController } from './market-news.controller';
import { NEWS_PROVIDER, NewsClient } from './news.client';
import { NewsController } from './news.controller';
import { NewsService } from './news.service';
import { MarketWire } from './providers/replay/market-wire.service';
import { ReplayNewsProvider } from './providers/replay/replay-news.provider';
import { SentimentEngine } from './sentiment/sentiment.engine';
import { SOCIAL_SENTIMENT_PROVIDER, SocialSentimentService } from './social-sentiment.service';

@Module({
  imports: [
    MarketModule,
    ReplayModule,
    VendorsModule,
    HttpModule.registerAsync({
      inject: [newsConfig.KEY],
      useFactory: (config: ConfigType<typeof newsConfig>) => ({ timeout: config.timeoutMs }),
    }),
  ],
  controllers: [MarketNewsController, NewsController],
  providers: [
    SentimentEngine,
    MarketWire,
    ReplayNewsProvider,
    {
      provide: NEWS_PROVIDER,
      inject: [newsConfig.KEY, vendorsConfig.KEY, ReplayNewsProvider, HttpService, MarketService, Clock],
      useFactory: (
        config: ConfigType<typeof newsConfig>,
        vendors: ConfigType<typeof vendorsConfig>,
        replay: ReplayNewsProvider,
        http: HttpService,
        market: MarketService,
        clock: Clock,
      ): NewsProvider => {
        const registration: ProviderRegistration<NewsProviderDependencies, NewsProvider> =
          NEWS_PROVIDER_REGISTRY[config.provider];
        return registration.create({
          http,
          vendors,
          replay,
          now: () => clock.now(),
          companyName: async (symbol) => (await market.getProfile(symbol)).name,
        });
      },
    },
    {
      provide: SOCIAL_SENTIMENT_PROVIDER,
      inject: [vendorsConfig.KEY, HttpService, Clock],
      useFactory: (
        vendors: ConfigType<typeof vendorsConfig>,
        http: HttpService,
        clock: Clock,
      ): SocialSentimentProvider | null =>
        createSocialSentimentProvider({ http, vendors, now: () => clock.now() }),
    },
    NewsClient,
    NewsService,
    SocialSentimentService,
  ],
  exports: [NewsService],
})
export class NewsModule {}
