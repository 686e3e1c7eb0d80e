import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiInternalServerErrorResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorDetail } from '../../common/errors/error-details';
import { BatchQuotesQuery, PriceHistoryQuery, SymbolSearchQuery } from './dto/market-query.dto';
import {
  BatchErrorEntry,
  BatchQuotesResponse,
  MarketSummaryResponse,
  PriceHistoryResponse,
  StockResponse,
  StockSplitsResponse,
  SymbolMatchResponse,
} from './dto/market.response';
import { MarketService } from './market.service';

@ApiTags('market')
@ApiExtraModels(StockResponse, BatchErrorEntry)
@Controller('market')
export class MarketController {
  constructor(private readonly market: MarketService) {}

  @Get('stock/:symbol')
  @ApiOperation({ summary: 'Quote for one symbol (case-insensitive; BRK.B or BRK-B)' })
  @ApiOkResponse({ type: StockResponse })
  @ApiNotFoundResponse({ description: '`Stock <symbol> not found`' })
  @ApiInternalServerErrorResponse({ description: '`Failed to retrieve stock data for <symbol>`' })
  async quote(@Param('symbol') symbol: string): Promise<StockResponse> {
    return StockResponse.from(await this.market.getQuote(symbol));
  }

  @Get('stock/:symbol/history')
  @ApiOperation({
    summary: 'Daily, weekly or monthly bars, oldest first (index symbols ^GSPC, ^DJI, ^IXIC too)',
  })
  @ApiOkResponse({ type: PriceHistoryResponse })
  @ApiNotFoundResponse({ description: '`Stock <symbol> not found`' })
  async history(
    @Param('symbol') symbol: string,
    @Query() query: PriceHistoryQuery,
  ): Promise<PriceHistoryResponse> {
    return PriceHistoryResponse.from(await this.market.getHistory(symbol, query));
  }

  @Get('stock/:symbol/splits')
  @ApiOperation({
    summary:
      'The splits the provider knows for the symbol (the last 20 years) and whether its closes are split-adjusted',
  })
  @ApiOkResponse({ type: StockSplitsResponse })
  @ApiNotFoundResponse({ description: '`Stock <symbol> not found`' })
  @ApiInternalServerErrorResponse({ description: '`Failed to retrieve stock data for <symbol>`' })
  async splits(@Param('symbol') symbol: string): Promise<StockSplitsResponse> {
    return StockSplitsResponse.from(await this.market.getSplits(symbol));
  }

  @Get('stocks/batch')
  @ApiOperation({ summary: 'Quotes for up to 10 symbols; unknown ones get an {error} entry' })
  @ApiOkResponse({ type: BatchQuotesResponse })
  @ApiBadRequestResponse({ description: `\`${ErrorDetail.tooManyBatchSymbols}\`` })
  @ApiInternalServerErrorResponse({ description: `\`${ErrorDetail.batchRetrievalFailed}\`` })
  async batch(@Query() query: BatchQuotesQuery): Promise<BatchQuotesResponse> {
    return BatchQuotesResponse.from(await this.market.getBatch(query.symbols));
  }

  @Get('summary')
  @ApiOperation({ summary: 'The S&P 500, Dow Jones and NASDAQ, and the 5 top gainers and losers' })
  @ApiOkResponse({ type: MarketSummaryResponse })
  @ApiInternalServerErrorResponse({ description: `\`${ErrorDetail.summaryRetrievalFailed}\`` })
  async summary(): Promise<MarketSummaryResponse> {
    return MarketSummaryResponse.from(await this.market.getSummary());
  }

  @Get('search')
  @ApiOperation({ summary: 'Symbols whose ticker or company name matches the query, best first' })
  @ApiOkResponse({ type: SymbolMatchResponse, isArray: true })
  async search(@Query() query: SymbolSearchQuery): Promise<SymbolMatchResponse[]> {
    return (await this.market.search(query.query, query.limit)).map(SymbolMatchResponse.from);
  }
}
