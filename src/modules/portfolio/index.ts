// What other modules may use of the portfolio: the module, its read model (PortfolioQueries), the
// rebalance, the holdings' edges in the market graph, and the shapes they return.
export { PortfolioModule } from './portfolio.module';
export { PortfolioQueries } from './portfolio-queries.service';
export { RebalanceService } from './rebalance.service';
export { PortfolioGraphService } from './portfolio-graph.service';
export { byUnrealizedPercent } from './analytics/portfolio-summary';
export { DEFAULT_BENCHMARK, DEFAULT_LOOKBACK_DAYS } from './risk-metrics.service';
export type { HoldingsSnapshot } from './holdings.service';
export type { PortfolioTotals, Performer, SectorAllocation } from './analytics/portfolio-summary';
export type { ValuedPosition } from './analytics/position-valuation';
export type { PortfolioSummary } from './portfolio-summary.service';
export type { PortfolioRiskMetrics } from './risk-metrics.service';
export type { OpenLots, RealizedGains } from './tax-lots.service';
export type { PortfolioIncome } from './portfolio-income.service';
