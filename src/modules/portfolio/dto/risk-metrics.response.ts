import { ApiProperty } from '@nestjs/swagger';
import { RISK_LEVELS, RiskLevel } from '../analytics/risk-level';
import { money, nullable, ratio } from '../portfolio-rounding';
import { PortfolioRiskMetrics } from '../risk-metrics.service';

const FRACTION = 'fraction (0.25 = 25%)';

export class RiskWindowResponse {
  @ApiProperty({ format: 'date', description: 'Valuation date before the first return' })
  start_date: string;

  @ApiProperty({ format: 'date', description: 'Date of the last return' })
  end_date: string;

  @ApiProperty({ type: 'integer', description: 'Daily returns used (at most lookback_days)' })
  observations: number;
}

export class DrawdownResponse {
  @ApiProperty({
    description: `Largest fall from a running peak of the wealth index, ${FRACTION}; 0 when none`,
  })
  max_drawdown: number;

  @ApiProperty({ type: String, format: 'date', nullable: true })
  peak_date: string | null;

  @ApiProperty({ type: String, format: 'date', nullable: true })
  trough_date: string | null;
}

export class TailRiskResponse {
  @ApiProperty({ example: 0.95 })
  confidence: number;

  @ApiProperty({
    description: `Historical 1-day VaR: the loss not exceeded on that share of days, positive ${FRACTION}`,
  })
  var: number;

  @ApiProperty({ description: 'var × total_value, USD' })
  var_amount: number;

  @ApiProperty({
    description: `1-day CVaR (expected shortfall): mean loss on the days at or beyond the VaR, ${FRACTION}`,
  })
  cvar: number;

  @ApiProperty({ description: 'cvar × total_value, USD' })
  cvar_amount: number;
}

export class LargestWeightResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ description: FRACTION })
  weight: number;
}

export class ConcentrationResponse {
  @ApiProperty({
    description:
      'Herfindahl index Σ w² over holdings, w as fractions: 1/N for N equal weights, 1 for one holding',
  })
  herfindahl_index: number;

  @ApiProperty({ description: '1 / herfindahl_index' })
  effective_holdings: number;

  @ApiProperty({ type: LargestWeightResponse })
  largest_weight: LargestWeightResponse;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      `Combined weight of the largest co-movement cluster of the market graph (see GET /portfolio/exposure), ` +
      `${FRACTION}, beside largest_weight: holdings that move as one are one bet; null when the graph cannot answer`,
  })
  largest_cluster_weight: number | null;

  @ApiProperty({ type: [String], description: 'The members of that cluster, largest weight first' })
  largest_cluster_members: string[];

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'Effective number of independent bets: (Σw)² / ΣΣ wᵢwⱼρᵢⱼ over 252 sessions; null when unknown',
  })
  effective_independent_bets: number | null;
}

export class SectorWeightResponse {
  @ApiProperty({ example: 'technology' })
  sector: string;

  @ApiProperty({ description: FRACTION })
  weight: number;
}

export class SectorConcentrationResponse {
  @ApiProperty({ description: 'Herfindahl index over sector weights' })
  herfindahl_index: number;

  @ApiProperty({ type: [SectorWeightResponse], description: 'Heaviest first' })
  sectors: SectorWeightResponse[];
}

export class CorrelationMatrixResponse {
  @ApiProperty({
    type: [String],
    description: 'The (up to) 10 heaviest holdings with price history, heaviest first',
  })
  symbols: string[];

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'number', nullable: true } },
    description:
      'matrix[i][j]: Pearson correlation of the daily returns of symbols[i] and symbols[j]; null if one never moves',
  })
  matrix: (number | null)[][];
}

export class RiskMetricsResponse {
  @ApiProperty({ type: 'integer', example: 252 })
  lookback_days: number;

  @ApiProperty({ example: '^GSPC' })
  benchmark: string;

  @ApiProperty({ example: 0.02, description: 'Annual risk-free rate (RISK_FREE_RATE), fraction' })
  risk_free_rate: number;

  @ApiProperty({ type: RiskWindowResponse, nullable: true })
  window: RiskWindowResponse | null;

  @ApiProperty({ description: 'Market value of the holdings, USD' })
  total_value: number;

  @ApiProperty({ type: Number, nullable: true, description: `Mean daily return × 252, ${FRACTION}` })
  annualised_return: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: `Sample standard deviation (n − 1) of daily portfolio returns × √252, ${FRACTION}`,
  })
  volatility: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Cov(r_p, r_b) / Var(r_b), sample estimators' })
  beta: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Pearson correlation of daily portfolio and benchmark returns',
  })
  correlation: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'mean(r − rf/252) / s(r) × √252 with s the sample deviation',
  })
  sharpe_ratio: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'mean(r − rf/252) / DD × √252 with DD = √(Σ min(0, r − rf/252)² / n)',
  })
  sortino_ratio: number | null;

  @ApiProperty({ type: DrawdownResponse, nullable: true })
  max_drawdown: DrawdownResponse | null;

  @ApiProperty({ type: [TailRiskResponse], nullable: true, description: 'At 95% and 99% confidence' })
  value_at_risk: TailRiskResponse[] | null;

  @ApiProperty({ type: ConcentrationResponse, nullable: true })
  concentration: ConcentrationResponse | null;

  @ApiProperty({ type: SectorConcentrationResponse, nullable: true })
  sector_concentration: SectorConcentrationResponse | null;

  @ApiProperty({ type: CorrelationMatrixResponse, nullable: true })
  correlation_matrix: CorrelationMatrixResponse | null;

  @ApiProperty({
    enum: RISK_LEVELS,
    nullable: true,
    description:
      'The higher of a volatility level (moderate from 12%, aggressive from 20%) and concentration levels ' +
      '(largest weight: moderate above 20%, aggressive above 40%; effective holdings: moderate below 10, aggressive below 4)',
  })
  risk_level: RiskLevel | null;

  @ApiProperty({
    enum: RISK_LEVELS,
    nullable: true,
    description: "The user's preferences risk_tolerance, if set",
  })
  risk_tolerance: RiskLevel | null;

  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'risk_level equals risk_tolerance; null without preferences',
  })
  matches_preferences: boolean | null;

  @ApiProperty({ type: [String], description: 'Plain-language explanations' })
  notes: string[];

  @ApiProperty({ type: String, format: 'date-time' })
  as_of: string;

  /** Ratios to 4 decimals, money in cents. */
  static from(metrics: PortfolioRiskMetrics): RiskMetricsResponse {
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
        largest_cluster_weight: nullable(metrics.clusterConcentration?.largestClusterWeight ?? null, ratio),
        largest_cluster_members: metrics.clusterConcentration?.largestClusterMembers ?? [],
        effective_independent_bets: nullable(metrics.clusterConcentration?.effectiveBets ?? null, ratio),
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
        matrix: metrics.topHoldingsCorrelation.matrix.map((row) =>
          row.map((value) => nullable(value, ratio)),
        ),
      },
      risk_level: metrics.riskLevel,
      risk_tolerance: metrics.riskTolerance,
      matches_preferences: metrics.matchesPreferences,
      notes: metrics.notes,
      as_of: metrics.asOf.toISOString(),
    };
  }
}
