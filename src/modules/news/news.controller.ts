import { Body, Controller, Get, HttpCode, Param, Post, Query, UseInterceptors } from '@nestjs/common';
import {
  ApiInternalServerErrorResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
} from '@nestjs/swagger';
import { Public } from '../../common/auth/public.decorator';
import { ErrorDetail } from '../../common/errors/error-details';
import { NewsListQuery, SentimentRequest, SentimentScoreQuery } from './dto/news-query.dto';
import { NewsItemResponse, SentimentScoreResponse, SocialSentimentResponse } from './dto/news.response';
import { LatestNewsRoute, NewsApi, NewsFeedController } from './news-feed.controller';
import { NewsItemPageInterceptor } from './news-item-page.interceptor';
import { NewsService } from './news.service';
import { SocialSentimentService } from './social-sentiment.service';

/** Spec 4.3: the news root endpoints, the client-facing sentiment scorer and wire items by id. */
@NewsApi()
@Controller('news')
export class NewsController extends NewsFeedController {
  constructor(
    news: NewsService,
    private readonly social: SocialSentimentService,
  ) {
    super(news);
  }

  @LatestNewsRoute('Latest news, newest first, filtered by symbol, keywords, sentiment and time window')
  latest(@Query() query: NewsListQuery): Promise<NewsItemResponse[]> {
    return this.latestItems(query);
  }

  @Public()
  @Get('items/:id')
  @UseInterceptors(NewsItemPageInterceptor)
  @ApiOperation({
    summary: 'One Market Replay Wire story, the target of its `url`',
    description:
      'Public: the wire is written from market prices, nothing in it is private. A client that prefers HTML ' +
      '(`Accept: text/html`, as a browser following the link) gets the story as a small page; others get JSON.',
  })
  @ApiOkResponse({ type: NewsItemResponse })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.newsItemNotFound}\`` })
  async item(@Param('id') id: string): Promise<NewsItemResponse> {
    return NewsItemResponse.from(await this.news.item(id));
  }

  @Post('sentiment')
  @HttpCode(200)
  @ApiOperation({
    summary: "Scores the client's own texts with the news sentiment engine, in order",
    description: "The score is the trained model's P(positive) − P(negative); see docs/sentiment.md.",
  })
  @ApiOkResponse({ type: SentimentScoreResponse, isArray: true })
  score(@Body() body: SentimentRequest, @Query() query: SentimentScoreQuery): SentimentScoreResponse[] {
    return this.news.scoreTexts(body.texts, query.explain).map(SentimentScoreResponse.from);
  }

  @Get('social/:symbol')
  @ApiOperation({
    summary: 'Social-media sentiment of a symbol over the last 7 days (Finnhub; needs FINNHUB_API_KEY)',
  })
  @ApiOkResponse({ type: SocialSentimentResponse })
  @ApiServiceUnavailableResponse({ description: `\`${ErrorDetail.socialSentimentNotConfigured}\`` })
  @ApiInternalServerErrorResponse({ description: `\`${ErrorDetail.socialSentimentRetrievalFailed}\`` })
  async socialSentiment(@Param('symbol') symbol: string): Promise<SocialSentimentResponse> {
    return SocialSentimentResponse.from(await this.social.forSymbol(symbol));
  }
}
