import { StreamableFile } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { PositionContribution } from '../analytics/contribution';
import { HISTORY_PERIODS, HistoryPeriod } from '../analytics/time-weighted-returns';
import { HistoryPoint } from '../analytics/value-history';
import { PortfolioHistory } from '../portfolio-history.service';
import { money, nullable, percent } from '../portfolio-rounding';
import { jsonParts, SerializedRows } from './serialized-rows';

export class HistoryPointResponse {
  @ApiProperty({ example: '2025-03-12', description: 'Trading day (New York date), or a day with trades' })
  date: string;

  @ApiProperty({ example: 23456.78, description: 'Holdings valued at the close, USD' })
  market_value: number;

  @ApiProperty({
    example: 20000,
    description:
      'Money put into the holdings less money taken out since the first trade (buys with fees and fees charged ' +
      'on positions − sell proceeds and dividends net of withholding tax), USD',
  })
  net_invested: number;

  @ApiProperty({
    example: 7.1234,
    description: 'Time-weighted return from the start of the period to this day, percent',
  })
  cumulative_return: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 5.4321,
    description:
      "The benchmark's return from its last close on or before the period's start to this day, percent; null without such a close",
  })
  benchmark_return: number | null;

  /** Returns as percentages; money in cents. */
  static from(this: void, point: HistoryPoint): HistoryPointResponse {
    return {
      date: point.date,
      market_value: money(point.marketValue),
      net_invested: money(point.netInvested),
      cumulative_return: percent(100 * point.cumulativeReturn),
      benchmark_return: nullable(point.benchmarkReturn, (value) => percent(100 * value)),
    };
  }
}

export class ContributionResponse {
  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({
    example: 3.2101,
    description:
      "Percentage points of the period's time-weighted return earned by this position (each day's gain net of its trades over the capital at work, compounded with the portfolio's growth before it)",
  })
  contribution: number;

  static from(this: void, { symbol, contribution }: PositionContribution): ContributionResponse {
    return { symbol, contribution: percent(100 * contribution) };
  }
}

export class HistoryResponse {
  @ApiProperty({ enum: HISTORY_PERIODS, example: '1Y' })
  period: HistoryPeriod;

  @ApiProperty({ example: '^GSPC' })
  benchmark: string;

  @ApiProperty({
    type: [HistoryPointResponse],
    description:
      'Oldest first: every valuation day after the period start (or from the first trade), evenly thinned to at most 400 points with the first and last kept; empty with no trades',
  })
  points: HistoryPointResponse[];

  @ApiProperty({
    type: [ContributionResponse],
    description:
      "Every position held or traded in the period, largest contribution first; they sum to the last point's cumulative_return (up to rounding). Empty with no capital at work",
  })
  contributions: ContributionResponse[];

  @ApiProperty({ type: String, format: 'date-time' })
  as_of: string;

  /** Returns as percentages; money in cents. */
  static from(history: PortfolioHistory): HistoryResponse {
    return {
      period: history.period,
      benchmark: history.benchmark,
      points: history.points.map(HistoryPointResponse.from),
      contributions: history.contributions.map(ContributionResponse.from),
      as_of: history.asOf.toISOString(),
    };
  }

  /** The UTF-8 JSON of `from(history)`, its points serialized once per kept chart. */
  static json(history: PortfolioHistory): StreamableFile {
    return jsonParts([
      `{"period":${JSON.stringify(history.period)},"benchmark":${JSON.stringify(history.benchmark)},"points":`,
      pointRows.of(history.points),
      `,"contributions":${JSON.stringify(history.contributions.map(ContributionResponse.from))}`,
      `,"as_of":${JSON.stringify(history.asOf.toISOString())}}`,
    ]);
  }
}

const pointRows = new SerializedRows<HistoryPoint, HistoryPointResponse>(HistoryPointResponse.from);
