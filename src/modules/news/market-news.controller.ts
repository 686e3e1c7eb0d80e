import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiInternalServerErrorResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ErrorDetail } from '../../common/errors/error-details';
import { MarketNewsQuery, NewsSearchQuery, StockNewsQuery } from './dto/news-query.dto';
import { NewsItemResponse } from './dto/news.response';
import { NewsService } from './news.service';

const RETRIEVAL_FAILED = `\`${ErrorDetail.newsRetrievalFailed('<provider key variable>')}\``;

/** Spec 4.2's news rows; the same service answers the /news family. */
@ApiTags('news')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ description: `\`${ErrorDetail.couldNotValidateCredentials}\`` })
@ApiUnprocessableEntityResponse({ description: 'Invalid parameters: `{detail: [{loc, msg, type, ctx?}]}`' })
@Controller('market/news')
export class MarketNewsController {
  constructor(private readonly news: NewsService) {}

  @Get()
  @ApiOperation({
    summary: 'Latest market news, newest first, optionally about a symbol or matching keywords',
  })
  @ApiOkResponse({ type: NewsItemResponse, isArray: true })
  @ApiInternalServerErrorResponse({ description: RETRIEVAL_FAILED })
  async latest(@Query() query: MarketNewsQuery): Promise<NewsItemResponse[]> {
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
}
