// What other modules may use of the portfolio: the module, its read model (PortfolioQueries), the
// rebalance and the rounding its route answers with, the holdings' edges in the market graph, the
// shapes they return, and the upload cap the HTTP bootstrap sets its parser limit from.
export { PortfolioModule } from './portfolio.module';
export { PortfolioQueries } from './portfolio-queries.service';
export { RebalanceService } from './rebalance.service';
export {
  money as roundedMoney,
  percent as roundedPercent,
  quantity as roundedQuantity,
} from './portfolio-rounding';
export { PortfolioGraphService } from './portfolio-graph.service';
export { BROKER_IMPORT_MAX_BYTES } from './broker-import/upload-body';
export { byUnrealizedPercent } from './analytics/portfolio-summary';
export { DEFAULT_BENCHMARK, DEFAULT_LOOKBACK_DAYS } from './risk-metrics.service';
export type { HoldingsSnapshot } from './holdings.service';
export type { PortfolioTotals, Performer, SectorAllocation } from './analytics/portfolio-summary';
export type { ValuedPosition } from './analytics/position-valuation';
export type { PortfolioSummary } from './portfolio-summary.service';
export type { PortfolioRiskMetrics } from './risk-metrics.service';
export type { OpenLots, RealizedGains } from './tax-lots.service';
export type { PortfolioIncome } from './portfolio-income.service';
