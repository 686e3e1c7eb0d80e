import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiInternalServerErrorResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ErrorDetail } from '../../common/errors/error-details';
import { NewsListQuery, NewsSearchQuery, SentimentRequest, StockNewsQuery } from './dto/news-query.dto';
import { NewsItemResponse, SentimentScoreResponse, SocialSentimentResponse } from './dto/news.response';
import { NewsService } from './news.service';
import { SocialSentimentService } from './social-sentiment.service';

const RETRIEVAL_FAILED = `\`${ErrorDetail.newsRetrievalFailed('<provider key variable>')}\``;

/** Spec 4.3: the news root endpoints, the client-facing sentiment scorer and wire items by id. */
@ApiTags('news')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ description: `\`${ErrorDetail.couldNotValidateCredentials}\`` })
@ApiUnprocessableEntityResponse({ description: 'Invalid parameters: `{detail: [{loc, msg, type, ctx?}]}`' })
@Controller('news')
export class NewsController {
  constructor(
    private readonly news: NewsService,
    private readonly social: SocialSentimentService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Latest news, newest first, filtered by symbol, keywords, sentiment and time window',
  })
  @ApiOkResponse({ type: NewsItemResponse, isArray: true })
  @ApiInternalServerErrorResponse({ description: RETRIEVAL_FAILED })
  async latest(@Query() query: NewsListQuery): Promise<NewsItemResponse[]> {
    return (await this.news.latest(query, query.limit)).map(NewsItemResponse.from);
  }

  @Get('search')
  @ApiOperation({ summary: 'News matching a keyword query, newest first' })
  @ApiOkResponse({ type: NewsItemResponse, isArray: true })
  @ApiInternalServerErrorResponse({
    description: `\`${ErrorDetail.newsSearchFailed('<provider key variable>')}\``,
  })
  async search(@Query() query: NewsSearchQuery): Promise<NewsItemResponse[]> {
    return (await this.news.search(query.query, query.limit)).map(NewsItemResponse.from);
  }

  @Get('stock/:symbol')
  @ApiOperation({ summary: 'News about one stock, newest first (an unknown symbol has none)' })
  @ApiOkResponse({ type: NewsItemResponse, isArray: true })
  @ApiInternalServerErrorResponse({ description: RETRIEVAL_FAILED })
  async stock(@Param('symbol') symbol: string, @Query() query: StockNewsQuery): Promise<NewsItemResponse[]> {
    return (await this.news.forStock(symbol, query.limit)).map(NewsItemResponse.from);
  }

  @Get('items/:id')
  @ApiOperation({ summary: 'One Market Replay Wire story, the target of its `url`' })
  @ApiOkResponse({ type: NewsItemResponse })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.newsItemNotFound}\`` })
  async item(@Param('id') id: string): Promise<NewsItemResponse> {
    return NewsItemResponse.from(await this.news.item(id));
  }

  @Post('sentiment')
  @HttpCode(200)
  @ApiOperation({ summary: "Scores the client's own texts with the news sentiment engine, in order" })
  @ApiOkResponse({ type: SentimentScoreResponse, isArray: true })
  score(@Body() body: SentimentRequest): SentimentScoreResponse[] {
    return this.news.scoreTexts(body.texts).map(SentimentScoreResponse.from);
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
