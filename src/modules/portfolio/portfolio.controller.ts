import { Body, Controller, Get, HttpCode, HttpStatus, Post, Query, StreamableFile } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiInternalServerErrorResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { ErrorDetail } from '../../common/errors/error-details';
import { SendsPartedBody } from '../../common/http/parted-body';
import { ExposureResponse } from '../graph';
import { Idempotent } from '../idempotency';
import { AccountScopeQuery } from './dto/account-id.field';
import { HistoryQuery } from './dto/history.query';
import { HistoryResponse } from './dto/history.response';
import { IncludeCashQuery } from './dto/include-cash.query';
import { IncomeQuery } from './dto/income.query';
import { IncomeResponse } from './dto/income.response';
import { OverviewResponse } from './dto/overview.response';
import { PositionsResponse } from './dto/position.response';
import { RebalanceRequestDto } from './dto/rebalance-request.dto';
import { RebalanceResponse } from './dto/rebalance.response';
import { RiskMetricsQuery } from './dto/risk-metrics.query';
import { RiskMetricsResponse } from './dto/risk-metrics.response';
import { SummaryResponse } from './dto/summary.response';
import { RealizedQuery } from './dto/realized.query';
import { RealizedResponse, TaxLotsResponse } from './dto/tax-lots.response';
import { PortfolioQueries } from './portfolio-queries.service';
import { RebalanceService } from './rebalance.service';

@ApiTags('portfolio')
@ApiInternalServerErrorResponse({ description: 'The market-data provider failed' })
@Controller('portfolio')
export class PortfolioController {
  constructor(
    private readonly queries: PortfolioQueries,
    private readonly rebalancer: RebalanceService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Dashboard overview',
    description:
      'Summary, the 10 heaviest positions, the preferences watchlist with quotes and a risk snapshot.',
  })
  @ApiOkResponse({ type: OverviewResponse })
  @ApiUnprocessableEntityResponse({ description: 'Invalid include_cash' })
  async overview(@CurrentUser() user: AuthUser, @Query() query: IncludeCashQuery): Promise<OverviewResponse> {
    return OverviewResponse.from(await this.queries.overview(user.id, query.include_cash, query.account_id));
  }

  @Get('positions')
  @SendsPartedBody()
  @ApiOperation({ summary: 'Open positions at live quotes, heaviest first' })
  @ApiOkResponse({ type: PositionsResponse })
  @ApiUnprocessableEntityResponse({ description: 'Invalid include_cash' })
  async positions(@CurrentUser() user: AuthUser, @Query() query: IncludeCashQuery): Promise<StreamableFile> {
    const snapshot = await this.queries.holdings(user.id, query.account_id);
    return PositionsResponse.json(
      snapshot.positions,
      query.include_cash ? snapshot.replay.cashBalance : undefined,
    );
  }

  @Get('lots')
  @SendsPartedBody()
  @ApiOperation({
    summary: 'Open tax lots, with unrealized P&L and holding period',
    description:
      "Each buy opens a lot (lot_id: the buy's id) at its price plus fees per share. Under the `specific` " +
      'cost-basis method sells close the lots they name, and the oldest for the rest; otherwise the oldest lots ' +
      'first (FIFO, also under `average`, which has no lots of its own). Wash sales are not adjusted.',
  })
  @ApiOkResponse({ type: TaxLotsResponse })
  async lots(@CurrentUser() user: AuthUser, @Query() query: AccountScopeQuery): Promise<StreamableFile> {
    return TaxLotsResponse.json(await this.queries.openLots(user.id, query.account_id));
  }

  @Get('realized')
  @SendsPartedBody()
  @ApiOperation({
    summary: 'Realized gains of a year by closed tax lot, short- and long-term',
    description:
      'Each sell of the year closes lots as in /portfolio/lots (the named lots under `specific`, else FIFO); each ' +
      "closed portion gets its share of the sell's net proceeds. Short-term: held one year or less. Wash sales are " +
      'not adjusted.',
  })
  @ApiOkResponse({ type: RealizedResponse })
  @ApiUnprocessableEntityResponse({ description: 'Invalid year' })
  async realized(@CurrentUser() user: AuthUser, @Query() query: RealizedQuery): Promise<StreamableFile> {
    return RealizedResponse.json(await this.queries.realized(user.id, query.year, query.account_id));
  }

  @Get('summary')
  @ApiOperation({
    summary: 'Totals, sector allocation, best and worst performers and time-weighted performance',
    description:
      'performance: time-weighted returns (percent) over 1M, 3M, YTD, 1Y and ALL, valued at daily closes with ' +
      'buys and sells neutralised; null where the ledger does not reach back that far or no capital was at work. ' +
      'money_weighted_performance: the XIRR of the same periods, expressed over each period. Periods end on ' +
      "New York's date. Dividends are income of their position and fees charged on a position its cost; " +
      'deposits, withdrawals, interest and other fees belong to the cash account, outside these returns. ' +
      'include_cash=true adds cash_balance and total_value_with_cash.',
  })
  @ApiOkResponse({ type: SummaryResponse })
  @ApiUnprocessableEntityResponse({ description: 'Invalid include_cash' })
  async summary(@CurrentUser() user: AuthUser, @Query() query: IncludeCashQuery): Promise<SummaryResponse> {
    return SummaryResponse.from(await this.queries.summary(user.id, query.include_cash, query.account_id));
  }

  @Get('history')
  @SendsPartedBody()
  @ApiOperation({
    summary: 'Daily value history for charts, beside a benchmark',
    description:
      'Per valuation day: market value, net invested capital, cumulative time-weighted return and the ' +
      "benchmark's cumulative return since the period's start (or the first trade). At most 400 points, " +
      'evenly thinned, first and last kept.',
  })
  @ApiOkResponse({ type: HistoryResponse })
  @ApiNotFoundResponse({ description: '`Stock <benchmark> not found`' })
  @ApiUnprocessableEntityResponse({ description: 'Invalid period or benchmark' })
  async history(@CurrentUser() user: AuthUser, @Query() query: HistoryQuery): Promise<StreamableFile> {
    return HistoryResponse.json(
      await this.queries.history(user.id, query.period, query.benchmark, query.account_id),
    );
  }

  @Get('income')
  @ApiOperation({
    summary: 'Dividends and interest by month and by symbol, with trailing-12-month yields',
    description:
      "Dividends (gross, withholding tax, net) and interest recorded after the period's start (New York dates), " +
      'by month and, for dividends, by symbol. trailing_12_months: the gross dividends of the symbols held today ' +
      'over the last twelve months, over their cost basis (yield on cost) and over their market value at live ' +
      'quotes (yield on value); see docs/portfolio.md.',
  })
  @ApiOkResponse({ type: IncomeResponse })
  @ApiUnprocessableEntityResponse({ description: 'Invalid period' })
  async income(@CurrentUser() user: AuthUser, @Query() query: IncomeQuery): Promise<IncomeResponse> {
    return IncomeResponse.from(await this.queries.income(user.id, query.period, query.account_id));
  }

  @Get('exposure')
  @ApiOperation({
    summary: 'Hidden concentration: co-movement clusters, effective number of bets, indirect news',
    description:
      "Holdings grouped into communities of the market graph's co-movement edges (daily returns correlated at 0.6 " +
      'or more over 252 sessions), each with its combined weight, the mean correlation of its pairs and its ' +
      "members; the effective number of independent bets; and the last 7 days' news about companies one hop " +
      'from a holding (same sub-industry, or co-moving), with sentiment and the path. Weights are of the ' +
      "holdings' value at the last close; with account_id, of that account's holdings alone. An empty portfolio " +
      'answers 200 with empty lists.',
  })
  @ApiOkResponse({
    type: ExposureResponse,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ExposureResponse' },
        examples: {
          concentrated: {
            summary: 'Three sectors, one bet',
            value: {
              as_of: '2026-11-25',
              clusters: [
                {
                  combined_weight: 0.75,
                  average_correlation: 0.6812,
                  central_member: 'XOM',
                  members: [
                    { symbol: 'XOM', weight: 0.25 },
                    { symbol: 'CVX', weight: 0.25 },
                    { symbol: 'SLB', weight: 0.25 },
                  ],
                },
                {
                  combined_weight: 0.25,
                  average_correlation: null,
                  central_member: 'JNJ',
                  members: [{ symbol: 'JNJ', weight: 0.25 }],
                },
              ],
              effective_bets: 1.6731,
              largest_cluster_weight: 0.75,
              largest_single_weight: 0.25,
              indirect_news: [
                {
                  title: 'Occidental Petroleum falls 3.2% in a weak energy session',
                  url: 'http://localhost:8000/api/v1/news/wire/20261125-brief-oxy',
                  published_at: '2026-11-25T21:40:00.000Z',
                  sentiment: 'negative',
                  sentiment_score: -0.41,
                  symbol: 'OXY',
                  holding: 'XOM',
                  why: 'OXY moves with XOM (correlation 0.74)',
                  path: ['XOM', 'OXY', 'news'],
                },
              ],
            },
          },
          empty: {
            summary: 'No holdings',
            value: {
              as_of: '2026-11-25',
              clusters: [],
              effective_bets: 0,
              largest_cluster_weight: 0,
              largest_single_weight: 0,
              indirect_news: [],
            },
          },
        },
      },
    },
  })
  @ApiNotFoundResponse({ description: `\`${ErrorDetail.accountNotFound}\`` })
  async exposure(
    @CurrentUser() user: AuthUser,
    @Query() query: AccountScopeQuery,
  ): Promise<ExposureResponse> {
    return ExposureResponse.from(await this.queries.exposure(user.id, query.account_id));
  }

  @Get('risk-metrics')
  @ApiOperation({
    summary: 'Risk of the current holdings',
    description:
      "Daily returns of today's holdings at today's weights (held constant) over the lookback window. " +
      'Sample (n − 1) estimators; annualised by 252 days (means) and √252 (deviations). Historical 1-day VaR ' +
      'and CVaR at 95% and 99%. An empty portfolio answers 200 with nulls and a note.',
  })
  @ApiOkResponse({ type: RiskMetricsResponse })
  @ApiNotFoundResponse({ description: '`Stock <benchmark> not found`' })
  @ApiUnprocessableEntityResponse({ description: 'Invalid lookback_days or benchmark' })
  async riskMetrics(
    @CurrentUser() user: AuthUser,
    @Query() query: RiskMetricsQuery,
  ): Promise<RiskMetricsResponse> {
    return RiskMetricsResponse.from(
      await this.queries.riskMetrics(
        user.id,
        query.lookback_days,
        query.benchmark,
        query.include_today,
        query.account_id,
      ),
    );
  }

  @Post('rebalance')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Plan or execute trades toward target weights',
    description:
      'Symbols drifting more than `tolerance` points trade to their target; buys never cost more than sells + cash. ' +
      'Whole shares unless `fractional`. Unless `dry_run`, all trades are recorded at the current quotes in one ' +
      'database transaction.',
  })
  @Idempotent()
  @ApiOkResponse({ type: RebalanceResponse })
  @ApiUnprocessableEntityResponse({
    description: 'Invalid targets, at the offending element; an invalid or reused Idempotency-Key',
  })
  @ApiBadRequestResponse({
    description:
      'A planned trade outside the ledger limits (docs/input-limits.md); the ledger would exceed PORTFOLIO_MAX_TRANSACTIONS',
  })
  async rebalance(
    @CurrentUser() user: AuthUser,
    @Body() body: RebalanceRequestDto,
  ): Promise<RebalanceResponse> {
    return RebalanceResponse.from(await this.rebalancer.rebalance(user.id, body));
  }
}
