// Domain results → response DTOs: wire names, ISO timestamps and rounding at the edge.
import { ValuedPosition } from './analytics/position-valuation';
import { PERFORMANCE_PERIODS } from './analytics/time-weighted-returns';
import {
  OverviewNewsItemResponse,
  OverviewResponse,
  RiskSnapshotResponse,
  WatchlistQuoteResponse,
} from './dto/overview.response';
import { PositionResponse } from './dto/position.response';
import { RebalanceResponse } from './dto/rebalance.response';
import { RiskMetricsResponse } from './dto/risk-metrics.response';
import { PerformanceResponse, SummaryResponse } from './dto/summary.response';
import { TransactionResponse } from './dto/transaction.response';
import { PortfolioTransactionEntity } from './entities/portfolio-transaction.entity';
import { money, nullable, percent, price, quantity, ratio } from './portfolio-rounding';
import { PortfolioSummary } from './portfolio-summary.service';
import { RebalanceOutcome } from './rebalance.service';
import { PortfolioRiskMetrics } from './risk-metrics.service';
import { HistoryResponse } from './dto/history.response';
import { RealizedResponse, TaxLotsResponse } from './dto/tax-lots.response';
import { RealizedGains, ValuedTaxLot } from './tax-lots.service';
import { PortfolioHistory } from './portfolio-history.service';

export function toTransactionResponse(row: PortfolioTransactionEntity): TransactionResponse {
  return {
    id: row.id,
    symbol: row.symbol,
    side: row.side,
    quantity: quantity(row.quantity),
    price: quantity(row.price),
    fees: quantity(row.fees),
    executed_at: row.executedAt.toISOString(),
    note: row.note,
    realized_pnl: nullable(row.realizedPnl, money),
    created_at: row.createdAt.toISOString(),
  };
}

export function toPositionResponse(position: ValuedPosition): PositionResponse {
  return {
    symbol: position.symbol,
    quantity: quantity(position.quantity),
    current_price: price(position.currentPrice),
    cost_basis: money(position.costBasis),
    market_value: money(position.marketValue),
    unrealized_pnl: money(position.unrealizedPnl),
    unrealized_pnl_percent: percent(position.unrealizedPnlPercent),
    day_change: money(position.dayChange),
    day_change_percent: percent(position.dayChangePercent),
    weight: percent(position.weight),
    sector: position.sector,
    last_updated: position.lastUpdated.toISOString(),
  };
}

export function toSummaryResponse(summary: PortfolioSummary): SummaryResponse {
  const percentPerPeriod = (returns: PortfolioSummary['performance']) =>
    Object.fromEntries(
      PERFORMANCE_PERIODS.map((period) => [
        period,
        nullable(returns[period], (value) => percent(100 * value)),
      ]),
    ) as unknown as PerformanceResponse;
  const performer = (entry: PortfolioSummary['bestPerformer']) =>
    entry && { symbol: entry.symbol, unrealized_pnl_percent: percent(entry.unrealizedPnlPercent) };
  return {
    total_value: money(summary.totalValue),
    total_cost: money(summary.totalCost),
    unrealized_pnl: money(summary.unrealizedPnl),
    unrealized_pnl_percent: percent(summary.unrealizedPnlPercent),
    realized_pnl: money(summary.realizedPnl),
    day_change: money(summary.dayChange),
    day_change_percent: percent(summary.dayChangePercent),
    positions_count: summary.positionsCount,
    sector_allocation: summary.sectorAllocation.map((sector) => ({
      sector: sector.sector,
      market_value: money(sector.marketValue),
      weight: percent(sector.weight),
    })),
    best_performer: performer(summary.bestPerformer),
    worst_performer: performer(summary.worstPerformer),
    performance: percentPerPeriod(summary.performance),
    as_of: summary.asOf.toISOString(),
    money_weighted_performance: percentPerPeriod(summary.moneyWeightedPerformance),
  };
}

export function toRiskMetricsResponse(metrics: PortfolioRiskMetrics): RiskMetricsResponse {
  return {
    lookback_days: metrics.lookbackDays,
    benchmark: metrics.benchmark,
    risk_free_rate: metrics.riskFreeRate,
    window: metrics.window && {
      start_date: metrics.window.startDate,
      end_date: metrics.window.endDate,
      observations: metrics.window.observations,
    },
    total_value: money(metrics.totalValue),
    annualised_return: nullable(metrics.annualisedReturn, ratio),
    volatility: nullable(metrics.volatility, ratio),
    beta: nullable(metrics.beta, ratio),
    correlation: nullable(metrics.correlation, ratio),
    sharpe_ratio: nullable(metrics.sharpeRatio, ratio),
    sortino_ratio: nullable(metrics.sortinoRatio, ratio),
    max_drawdown: metrics.drawdown && {
      max_drawdown: ratio(metrics.drawdown.maxDrawdown),
      peak_date: metrics.drawdown.peakDate,
      trough_date: metrics.drawdown.troughDate,
    },
    value_at_risk:
      metrics.tailRisk &&
      metrics.tailRisk.map((tail) => ({
        confidence: tail.confidence,
        var: ratio(tail.valueAtRisk),
        var_amount: money(tail.valueAtRiskAmount),
        cvar: ratio(tail.conditionalValueAtRisk),
        cvar_amount: money(tail.conditionalValueAtRiskAmount),
      })),
    concentration: metrics.concentration && {
      herfindahl_index: ratio(metrics.concentration.herfindahlIndex),
      effective_holdings: ratio(metrics.concentration.effectiveHoldings),
      largest_weight: {
        symbol: metrics.concentration.largestWeight.symbol,
        weight: ratio(metrics.concentration.largestWeight.weight),
      },
    },
    sector_concentration: metrics.sectorConcentration && {
      herfindahl_index: ratio(metrics.sectorConcentration.herfindahlIndex),
      sectors: metrics.sectorConcentration.sectors.map((sector) => ({
        sector: sector.sector,
        weight: ratio(sector.weight),
      })),
    },
    correlation_matrix: metrics.topHoldingsCorrelation && {
      symbols: metrics.topHoldingsCorrelation.symbols,
      matrix: metrics.topHoldingsCorrelation.matrix.map((row) => row.map((value) => nullable(value, ratio))),
    },
    risk_level: metrics.riskLevel,
    risk_tolerance: metrics.riskTolerance,
    matches_preferences: metrics.matchesPreferences,
    notes: metrics.notes,
    as_of: metrics.asOf.toISOString(),
  };
}

export function toRiskSnapshotResponse(metrics: PortfolioRiskMetrics): RiskSnapshotResponse {
  return {
    volatility: nullable(metrics.volatility, ratio),
    max_drawdown: metrics.drawdown && ratio(metrics.drawdown.maxDrawdown),
    risk_level: metrics.riskLevel,
    matches_preferences: metrics.matchesPreferences,
  };
}

export function toRebalanceResponse(outcome: RebalanceOutcome): RebalanceResponse {
  const weights = (entries: RebalanceOutcome['before']) =>
    entries.map((entry) => ({ symbol: entry.symbol, weight: percent(entry.weight) }));
  return {
    trades: outcome.trades.map((trade) => ({
      symbol: trade.symbol,
      side: trade.side,
      quantity: quantity(trade.quantity),
      price: price(trade.price),
      value: money(trade.value),
    })),
    before: weights(outcome.before),
    after: weights(outcome.after),
    turnover: percent(outcome.turnover),
    total_value: money(outcome.totalValue),
    cash_remaining: money(outcome.cashRemaining),
    executed: outcome.executed,
    transaction_ids: outcome.transactionIds,
  };
}

export interface Overview {
  summary: PortfolioSummary;
  positions: ValuedPosition[];
  watchlist: WatchlistQuoteResponse[];
  news: OverviewNewsItemResponse[];
  risk: PortfolioRiskMetrics;
  notes: string[];
  asOf: Date;
}

export const OVERVIEW_TOP_POSITIONS = 10;

export function toOverviewResponse(overview: Overview): OverviewResponse {
  return {
    summary: toSummaryResponse(overview.summary),
    top_positions: overview.positions.slice(0, OVERVIEW_TOP_POSITIONS).map(toPositionResponse),
    watchlist: overview.watchlist,
    news: overview.news,
    risk: toRiskSnapshotResponse(overview.risk),
    notes: overview.notes,
    as_of: overview.asOf.toISOString(),
  };
}

export function toHistoryResponse(history: PortfolioHistory): HistoryResponse {
  return {
    period: history.period,
    benchmark: history.benchmark,
    points: history.points.map((point) => ({
      date: point.date,
      market_value: money(point.marketValue),
      net_invested: money(point.netInvested),
      cumulative_return: percent(100 * point.cumulativeReturn),
      benchmark_return: nullable(point.benchmarkReturn, (value) => percent(100 * value)),
    })),
    as_of: history.asOf.toISOString(),
  };
}

export function toTaxLotsResponse(result: { lots: ValuedTaxLot[]; asOf: Date }): TaxLotsResponse {
  return {
    method: 'fifo',
    lots: result.lots.map((lot) => ({
      symbol: lot.symbol,
      acquired_on: lot.acquiredOn,
      quantity: quantity(lot.quantity),
      cost_per_share: price(lot.costPerShare),
      cost_basis: money(lot.costBasis),
      current_price: price(lot.currentPrice),
      market_value: money(lot.marketValue),
      unrealized_pnl: money(lot.unrealizedPnl),
      unrealized_pnl_percent: percent(lot.unrealizedPnlPercent),
      holding_days: lot.holdingDays,
      term: lot.term,
    })),
    as_of: result.asOf.toISOString(),
  };
}

export function toRealizedResponse(result: RealizedGains): RealizedResponse {
  return {
    year: result.year,
    method: 'fifo',
    realized: result.portions.map((portion) => ({
      symbol: portion.symbol,
      sell_id: portion.sellId,
      acquired_on: portion.acquiredOn,
      disposed_on: portion.disposedOn,
      quantity: quantity(portion.quantity),
      proceeds: money(portion.proceeds),
      cost: money(portion.cost),
      gain: money(portion.gain),
      term: portion.term,
    })),
    totals: {
      proceeds: money(result.totals.proceeds),
      cost: money(result.totals.cost),
      gain: money(result.totals.gain),
      short_term_gain: money(result.totals.shortTermGain),
      long_term_gain: money(result.totals.longTermGain),
    },
    as_of: result.asOf.toISOString(),
  };
}
