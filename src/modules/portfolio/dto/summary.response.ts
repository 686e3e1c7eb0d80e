import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PERFORMANCE_PERIODS } from '../analytics/time-weighted-returns';
import { money, nullable, percent } from '../portfolio-rounding';
import { PortfolioSummary } from '../portfolio-summary.service';

export class SectorAllocationResponse {
  @ApiProperty({ example: 'technology' })
  sector: string;

  @ApiProperty({ description: 'USD' })
  market_value: number;

  @ApiProperty({ description: 'Percent of total value' })
  weight: number;
}

export class PerformerResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ description: 'Percent' })
  unrealized_pnl_percent: number;
}

const twr = (period: string) => ({
  name: period,
  type: Number,
  nullable: true,
  description: `Time-weighted return over ${period}, percent; null when the ledger does not reach back that far`,
});

/** Time-weighted returns, percent, with buys and sells neutralised (see the README for the method). */
export class PerformanceResponse {
  @ApiProperty(twr('1M'))
  '1M': number | null;

  @ApiProperty(twr('3M'))
  '3M': number | null;

  @ApiProperty(twr('YTD'))
  YTD: number | null;

  @ApiProperty(twr('1Y'))
  '1Y': number | null;

  @ApiProperty({
    ...twr('ALL'),
    description: 'Time-weighted return since the first trade, percent; null with no trades',
  })
  ALL: number | null;
}

const mwr = (period: string) => ({
  name: period,
  type: Number,
  nullable: true,
  description: `Money-weighted return over ${period}, percent; null exactly where the time-weighted one is`,
  example: 4.2,
});

/** Money-weighted returns (XIRR, expressed over each period), percent. */
export class MoneyWeightedPerformanceResponse {
  @ApiProperty(mwr('1M'))
  '1M': number | null;

  @ApiProperty(mwr('3M'))
  '3M': number | null;

  @ApiProperty(mwr('YTD'))
  YTD: number | null;

  @ApiProperty(mwr('1Y'))
  '1Y': number | null;

  @ApiProperty(mwr('ALL'))
  ALL: number | null;
}

export class SummaryResponse {
  @ApiProperty({ description: 'Market value of the positions at live quotes, USD' })
  total_value: number;

  @ApiProperty({ description: 'Cost basis of the positions, USD' })
  total_cost: number;

  @ApiProperty({ description: 'total_value − total_cost, USD' })
  unrealized_pnl: number;

  @ApiProperty({ description: 'unrealized_pnl / total_cost, percent' })
  unrealized_pnl_percent: number;

  @ApiProperty({
    description:
      'Realized P&L of every sell so far (net of fees) by the cost-basis method (default average cost), USD',
  })
  realized_pnl: number;

  @ApiProperty({ description: 'Σ quantity × quote change, USD' })
  day_change: number;

  @ApiProperty({ description: "day_change / yesterday's value of today's holdings, percent" })
  day_change_percent: number;

  @ApiProperty({ type: 'integer' })
  positions_count: number;

  @ApiProperty({ type: [SectorAllocationResponse], description: 'Largest first' })
  sector_allocation: SectorAllocationResponse[];

  @ApiProperty({ type: PerformerResponse, nullable: true, description: 'Highest unrealized_pnl_percent' })
  best_performer: PerformerResponse | null;

  @ApiProperty({ type: PerformerResponse, nullable: true, description: 'Lowest unrealized_pnl_percent' })
  worst_performer: PerformerResponse | null;

  @ApiProperty({ type: PerformanceResponse })
  performance: PerformanceResponse;

  @ApiProperty({ type: String, format: 'date-time' })
  as_of: string;

  @ApiProperty({
    type: MoneyWeightedPerformanceResponse,
    description:
      'Money-weighted return (XIRR over the cash flows) of the same periods, percent of the period (not annualised): equal to `performance` when no money moved during the period; see docs/portfolio.md',
  })
  money_weighted_performance: MoneyWeightedPerformanceResponse;

  @ApiPropertyOptional({
    example: 1250.4,
    description:
      'With include_cash=true only: deposits − withdrawals + sell proceeds − buys + dividends (net of withholding) ' +
      '+ interest − fees, USD; negative when buys drew on cash never deposited',
  })
  cash_balance?: number;

  @ApiPropertyOptional({
    example: 26250.4,
    description: 'With include_cash=true only: total_value + cash_balance, USD',
  })
  total_value_with_cash?: number;

  /** Returns as percentages; money in cents. */
  static from(summary: PortfolioSummary): SummaryResponse {
    const percentPerPeriod = (returns: PortfolioSummary['performance']) =>
      Object.fromEntries(
        PERFORMANCE_PERIODS.map((period) => [
          period,
          nullable(returns[period], (value) => percent(100 * value)),
        ]),
      ) as Record<keyof PerformanceResponse, number | null>;
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
      ...(summary.cash && {
        cash_balance: money(summary.cash.balance),
        total_value_with_cash: money(summary.cash.totalValueWithCash),
      }),
    };
  }
}
