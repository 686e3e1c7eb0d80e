import { Injectable } from '@nestjs/common';
import { PortfolioExposure } from '../graph';
import { PortfolioTotals } from './analytics/portfolio-summary';
import { HistoryPeriod } from './analytics/time-weighted-returns';
import { HoldingsService, HoldingsSnapshot } from './holdings.service';
import { PortfolioGraphService } from './portfolio-graph.service';
import { PortfolioHistory, PortfolioHistoryService } from './portfolio-history.service';
import { PortfolioIncome, PortfolioIncomeService } from './portfolio-income.service';
import { Overview, PortfolioOverviewService } from './portfolio-overview.service';
import { PortfolioSummary, PortfolioSummaryService } from './portfolio-summary.service';
import { PortfolioRiskMetrics, RiskMetricsService } from './risk-metrics.service';
import { OpenLots, RealizedGains, TaxLotsService } from './tax-lots.service';

/**
 * The portfolio read model: the one entry for what a user holds and what it is worth (holdings,
 * totals, performance, risk, lots, income, exposure), for the controllers and for other modules
 * (the assistant, the briefing, alerts). Every answer comes from the same snapshot logic and the
 * same caches, keyed by the user, the ledger version, the cost-basis method, the exchange day and
 * the market-data version (see docs/architecture.md), so two readers of one state always agree.
 */
@Injectable()
export class PortfolioQueries {
  constructor(
    private readonly snapshots: HoldingsService,
    private readonly summaries: PortfolioSummaryService,
    private readonly risk: RiskMetricsService,
    private readonly histories: PortfolioHistoryService,
    private readonly taxLots: TaxLotsService,
    private readonly incomes: PortfolioIncomeService,
    private readonly overviews: PortfolioOverviewService,
    private readonly graph: PortfolioGraphService,
  ) {}

  /** The positions of one account (404 when it is not the user's) or of all, valued at live quotes. */
  holdings(userId: number, accountId?: number): Promise<HoldingsSnapshot> {
    return this.snapshots.snapshot(userId, accountId);
  }

  /** The summary's totals of a snapshot already read: value, cost, day change, sectors, best and worst. */
  totalsOf(snapshot: HoldingsSnapshot): PortfolioTotals {
    return this.summaries.totalsOf(snapshot);
  }

  /** The totals of every account alone, without the returns: what a check on the value needs. */
  totals(userId: number): Promise<PortfolioTotals & { asOf: Date }> {
    return this.summaries.totals(userId);
  }

  /** Totals with the time- and money-weighted returns; with `includeCash`, the cash balance too. */
  summary(userId: number, includeCash = false, accountId?: number): Promise<PortfolioSummary> {
    return this.summaries.summary(userId, includeCash, accountId);
  }

  /** Of these users, those with any ledger entry: the others hold nothing to value. */
  usersWithLedger(userIds: readonly number[]): Promise<Set<number>> {
    return this.summaries.usersWithLedger(userIds);
  }

  history(
    userId: number,
    period: HistoryPeriod,
    benchmark: string,
    accountId?: number,
  ): Promise<PortfolioHistory> {
    return this.histories.history(userId, period, benchmark, accountId);
  }

  riskMetrics(
    userId: number,
    lookbackDays: number,
    benchmark: string,
    includeToday = false,
    accountId?: number,
  ): Promise<PortfolioRiskMetrics> {
    return this.risk.riskMetrics(userId, lookbackDays, benchmark, includeToday, accountId);
  }

  overview(userId: number, includeCash = false, accountId?: number): Promise<Overview> {
    return this.overviews.overview(userId, includeCash, accountId);
  }

  openLots(userId: number, accountId?: number): Promise<OpenLots> {
    return this.taxLots.openLots(userId, accountId);
  }

  /** The open lots of a snapshot already read, of one symbol when given. */
  openLotsOf(snapshot: HoldingsSnapshot, symbol?: string): OpenLots {
    return this.taxLots.openLotsOf(snapshot, symbol);
  }

  realized(userId: number, year?: number, accountId?: number): Promise<RealizedGains> {
    return this.taxLots.realized(userId, year, accountId);
  }

  income(userId: number, period: HistoryPeriod, accountId?: number): Promise<PortfolioIncome> {
    return this.incomes.income(userId, period, accountId);
  }

  /** The holdings' co-movement clusters and indirect news in the market graph (of one account when named). */
  exposure(userId: number, accountId?: number): Promise<PortfolioExposure> {
    return this.graph.exposure(userId, accountId);
  }
}
