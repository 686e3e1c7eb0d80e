import { HttpModule, HttpService } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/time/clock';
import { newsConfig } from '../../config/news.config';
import { MarketModule } from '../market/market.module';
import { MarketService } from '../market/market.service';
import { MarketNewsController } from './market-news.controller';
import { NEWS_PROVIDER, NewsClient } from './news.client';
import { NewsController } from './news.controller';
import { NewsService } from './news.service';
import { FinnhubNewsProvider } from '../../integrations/vendors/finnhub/finnhub-news.provider';
import { NewsProvider, SocialSentimentProvider } from '../../integrations/vendors/news.provider';
import { NewsApiNewsProvider } from '../../integrations/vendors/newsapi/newsapi-news.provider';
import { MarketWire } from './providers/replay/market-wire.service';
import { ReplayNewsProvider } from './providers/replay/replay-news.provider';
import { SentimentEngine } from './sentiment/sentiment.engine';
import { SOCIAL_SENTIMENT_PROVIDER, SocialSentimentService } from './social-sentiment.service';

@Module({
  imports: [
    MarketModule,
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
      inject: [newsConfig.KEY, ReplayNewsProvider, HttpService, MarketService, Clock],
      useFactory: (
        config: ConfigType<typeof newsConfig>,
        replay: ReplayNewsProvider,
        http: HttpService,
        market: MarketService,
        clock: Clock,
      ): NewsProvider => {
        switch (config.provider) {
          case 'replay':
            return replay;
          case 'newsapi':
            return new NewsApiNewsProvider(http, {
              apiKey: config.newsApi.apiKey!,
              baseUrl: config.newsApi.baseUrl,
              companyName: async (symbol) => (await market.getProfile(symbol)).name,
            });
          case 'finnhub':
            return new FinnhubNewsProvider(
              http,
              { apiKey: config.finnhub.apiKey!, baseUrl: config.finnhub.baseUrl },
              () => clock.now(),
            );
        }
      },
    },
    {
      provide: SOCIAL_SENTIMENT_PROVIDER,
      inject: [newsConfig.KEY, HttpService, Clock],
      useFactory: (
        config: ConfigType<typeof newsConfig>,
        http: HttpService,
        clock: Clock,
      ): SocialSentimentProvider | null =>
        config.finnhub.apiKey
          ? new FinnhubNewsProvider(
              http,
              { apiKey: config.finnhub.apiKey, baseUrl: config.finnhub.baseUrl },
              () => clock.now(),
            )
          : null,
    },
    NewsClient,
    NewsService,
    SocialSentimentService,
  ],
  exports: [NewsService],
})
export class NewsModule {}
