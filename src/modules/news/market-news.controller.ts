import { Controller, Query } from '@nestjs/common';
import { MarketNewsQuery } from './dto/news-query.dto';
import { NewsItemResponse } from './dto/news.response';
import { LatestNewsRoute, NewsApi, NewsFeedController } from './news-feed.controller';
import { NewsService } from './news.service';

/** Spec 4.2's news rows; the same service answers the /news family. */
@NewsApi()
@Controller('market/news')
export class MarketNewsController extends NewsFeedController {
  constructor(news: NewsService) {
    super(news);
  }

  @LatestNewsRoute('Latest market news, newest first, optionally about a symbol or matching keywords')
  latest(@Query() query: MarketNewsQuery): Promise<NewsItemResponse[]> {
    return this.latestItems(query);
  }
}
