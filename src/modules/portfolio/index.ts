// What other modules may use of the portfolio: the module, the read services the assistant and
// the alerts use, the rebalance, and the upload cap the HTTP bootstrap sets its parser limit from.
export { BROKER_IMPORT_MAX_BYTES } from './broker-import/upload-body';
export { RebalanceResponse } from './dto/rebalance.response';
export { HoldingsService } from './holdings.service';
export type { HoldingsSnapshot } from './holdings.service';
export { PortfolioGraphService } from './portfolio-graph.service';
export { PortfolioIncomeService } from './portfolio-income.service';
export { PortfolioSummaryService } from './portfolio-summary.service';
export { PortfolioModule } from './portfolio.module';
export { RebalanceService } from './rebalance.service';
export { DEFAULT_BENCHMARK, DEFAULT_LOOKBACK_DAYS, RiskMetricsService } from './risk-metrics.service';
export { TaxLotsService } from './tax-lots.service';
