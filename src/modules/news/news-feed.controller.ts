import { applyDecorators, Get, Param, Query } from '@nestjs/common';
import { ApiInternalServerErrorResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorDetail } from '../../common/errors/error-details';
import { MarketNewsQuery, NewsSearchQuery, StockNewsQuery } from './dto/news-query.dto';
import { NewsItemResponse } from './dto/news.response';
import { NewsService } from './news.service';

/** The class-level docs of both news path families. */
export const NewsApi = () => applyDecorators(ApiTags('news'));

const RETRIEVAL_FAILED = `\`${ErrorDetail.newsRetrievalFailed('<provider key variable>')}\``;

/** The root route of a family: each one declares it, as each takes its own query. */
export const LatestNewsRoute = (summary: string) =>
  applyDecorators(
    Get(),
    ApiOperation({ summary }),
    ApiOkResponse({ type: NewsItemResponse, isArray: true }),
    ApiInternalServerErrorResponse({ description: RETRIEVAL_FAILED }),
  );

/**
 * The routes /market/news and /news answer alike: the keyword search and a stock's news.
 * Subclasses add @Controller with their path and their own latest route.
 */
export abstract class NewsFeedController {
  protected constructor(protected readonly news: NewsService) {}

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

  protected async latestItems(query: MarketNewsQuery): Promise<NewsItemResponse[]> {
    return (await this.news.latest(query, query.limit)).map(NewsItemResponse.from);
  }
}
