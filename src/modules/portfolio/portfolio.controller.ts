import { Body, Controller, Get, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiInternalServerErrorResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ApiBearerAccess } from '../../common/auth/api-bearer-access.decorator';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { ApiIdempotencyKey, IdempotencyKey, IdempotentRequest } from '../idempotency';
import { OverviewResponse } from './dto/overview.response';
import { PositionsResponse } from './dto/position.response';
import { RebalanceRequestDto } from './dto/rebalance-request.dto';
import { RebalanceResponse } from './dto/rebalance.response';
import { RiskMetricsQuery } from './dto/risk-metrics.query';
import { RiskMetricsResponse } from './dto/risk-metrics.response';
import { SummaryResponse } from './dto/summary.response';
import { HoldingsService } from './holdings.service';
import { PortfolioOverviewService } from './portfolio-overview.service';
import { PortfolioSummaryService } from './portfolio-summary.service';
import {
  toOverviewResponse,
  toPositionResponse,
  toRiskMetricsResponse,
  toSummaryResponse,
} from './portfolio.mapper';
import { RebalanceService } from './rebalance.service';
import { RiskMetricsService } from './risk-metrics.service';

@ApiTags('portfolio')
@ApiBearerAccess()
@ApiInternalServerErrorResponse({ description: 'The market-data provider failed' })
@Controller('portfolio')
export class PortfolioController {
  constructor(
    private readonly holdings: HoldingsService,
    private readonly summaries: PortfolioSummaryService,
    private readonly risk: RiskMetricsService,
    private readonly rebalancer: RebalanceService,
    private readonly overviews: PortfolioOverviewService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Dashboard overview',
    description:
      'Summary, the 10 heaviest positions, the preferences watchlist with quotes and a risk snapshot.',
  })
  @ApiOkResponse({ type: OverviewResponse })
  async overview(@CurrentUser() user: AuthUser): Promise<OverviewResponse> {
    return toOverviewResponse(await this.overviews.overview(user.id));
  }

  @Get('positions')
  @ApiOperation({ summary: 'Open positions at live quotes, heaviest first' })
  @ApiOkResponse({ type: PositionsResponse })
  async positions(@CurrentUser() user: AuthUser): Promise<PositionsResponse> {
    const snapshot = await this.holdings.snapshot(user.id);
    return { positions: snapshot.positions.map(toPositionResponse) };
  }

  @Get('summary')
  @ApiOperation({
    summary: 'Totals, sector allocation, best and worst performers and time-weighted performance',
    description:
      'performance: time-weighted returns (percent) over 1M, 3M, YTD, 1Y and ALL, valued at daily closes with ' +
      'buys and sells neutralised; null where the ledger does not reach back that far.',
  })
  @ApiOkResponse({ type: SummaryResponse })
  async summary(@CurrentUser() user: AuthUser): Promise<SummaryResponse> {
    return toSummaryResponse(await this.summaries.summary(user.id));
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
    return toRiskMetricsResponse(await this.risk.riskMetrics(user.id, query.lookback_days, query.benchmark));
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
  @ApiIdempotencyKey()
  @ApiOkResponse({ type: RebalanceResponse })
  @ApiUnprocessableEntityResponse({
    description: 'Invalid targets, at the offending element; an invalid or reused Idempotency-Key',
  })
  @ApiBadRequestResponse({ description: 'A planned trade outside the ledger limits (docs/input-limits.md)' })
  rebalance(
    @CurrentUser() user: AuthUser,
    @Body() body: RebalanceRequestDto,
    @IdempotencyKey() request: IdempotentRequest | undefined,
  ): Promise<RebalanceResponse> {
    return this.rebalancer.rebalance(user.id, body, request);
  }
}
