import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RISK_LEVELS, RiskLevel } from '../analytics/risk-level';
import { PositionResponse } from './position.response';
import { SummaryResponse } from './summary.response';
import { NewsItemResponse } from '../../news';
import { money, nullable, percent, ratio } from '../portfolio-rounding';
import { Overview, OVERVIEW_TOP_POSITIONS, SymbolNews, WatchedQuote } from '../portfolio-overview.service';
import { PortfolioRiskMetrics } from '../risk-metrics.service';

export class WatchlistQuoteResponse {
  @ApiProperty({ example: 'MSFT' })
  symbol: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'USD; null when the provider has no quote for the symbol',
  })
  price: number | null;

  @ApiProperty({ type: Number, nullable: true })
  change: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Percent' })
  changePercent: number | null;

  /** Rounded like the market endpoints: 2 decimals. */
  static from(quote: WatchedQuote): WatchlistQuoteResponse {
    return {
      symbol: quote.symbol,
      name: quote.name,
      price: nullable(quote.price, money),
      change: nullable(quote.change, money),
      changePercent: nullable(quote.changePercent, money),
    };
  }
}

export class RiskSnapshotResponse {
  @ApiProperty({ type: Number, nullable: true, description: 'Annualised volatility over 252 days, fraction' })
  volatility: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Maximum drawdown over 252 days, fraction' })
  max_drawdown: number | null;

  @ApiProperty({ enum: RISK_LEVELS, nullable: true })
  risk_level: RiskLevel | null;

  @ApiProperty({ type: Boolean, nullable: true })
  matches_preferences: boolean | null;

  /** The overview's few risk figures. */
  static from(metrics: PortfolioRiskMetrics): RiskSnapshotResponse {
    return {
      volatility: nullable(metrics.volatility, ratio),
      max_drawdown: metrics.drawdown && ratio(metrics.drawdown.maxDrawdown),
      risk_level: metrics.riskLevel,
      matches_preferences: metrics.matchesPreferences,
    };
  }
}

const SENTIMENTS = ['positive', 'negative', 'neutral'];

export class OverviewNewsItemResponse {
  @ApiProperty({ example: 'AAPL', description: 'The held or watched symbol the article was found for' })
  symbol: string;

  @ApiProperty()
  title: string;

  @ApiProperty()
  description: string;

  @ApiProperty()
  url: string;

  @ApiProperty({ description: 'Publisher name' })
  source: string;

  @ApiProperty({ format: 'date-time' })
  publishedAt: string;

  @ApiProperty({ enum: SENTIMENTS })
  sentiment: string;

  @ApiProperty({ minimum: -1, maximum: 1 })
  sentimentScore: number;

  static from(found: SymbolNews): OverviewNewsItemResponse {
    return { symbol: found.symbol, ...NewsItemResponse.from(found.item) };
  }
}

export class OverviewResponse {
  @ApiProperty({ type: SummaryResponse })
  summary: SummaryResponse;

  @ApiProperty({
    type: [PositionResponse],
    description: 'The 10 heaviest positions; with include_cash=true their weights count the cash too',
  })
  top_positions: PositionResponse[];

  @ApiPropertyOptional({
    example: 4.76,
    description:
      'With include_cash=true only: the cash balance in percent of the positions and the cash (see /portfolio/positions)',
  })
  cash_weight?: number;

  @ApiProperty({
    type: [WatchlistQuoteResponse],
    description: 'The preferences watchlist with quotes; empty without preferences',
  })
  watchlist: WatchlistQuoteResponse[];

  @ApiProperty({
    type: [OverviewNewsItemResponse],
    description:
      'The latest news about the held and watched symbols with its sentiment, newest first (at most 10)',
  })
  news: OverviewNewsItemResponse[];

  @ApiProperty({ type: RiskSnapshotResponse })
  risk: RiskSnapshotResponse;

  @ApiProperty({
    type: [String],
    description: 'Parts that could not be fetched, in words (empty when all were)',
  })
  notes: string[];

  @ApiProperty({ type: String, format: 'date-time' })
  as_of: string;

  /** The heaviest positions only; the summary and risk as their own routes round them. */
  static from(overview: Overview): OverviewResponse {
    return {
      summary: SummaryResponse.from(overview.summary),
      top_positions: overview.positions
        .slice(0, OVERVIEW_TOP_POSITIONS)
        .map((position) => PositionResponse.from(position)),
      ...(overview.cashWeight !== undefined && { cash_weight: percent(overview.cashWeight) }),
      watchlist: overview.watchlist.map((quote) => WatchlistQuoteResponse.from(quote)),
      news: overview.news.map((found) => OverviewNewsItemResponse.from(found)),
      risk: RiskSnapshotResponse.from(overview.risk),
      notes: overview.notes,
      as_of: overview.asOf.toISOString(),
    };
  }
}
