import { Injectable } from '@nestjs/common';
import { nyseSessionsBefore } from '../../common/calendar/nyse-calendar';
import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { normalizeSymbol } from '../market';
import { PositionContribution } from './analytics/contribution';
import { exchangeDay, HistoryPeriod } from './analytics/time-weighted-returns';
import { historyStart, HistoryPoint, valueHistory } from './analytics/value-history';
import { HoldingsService } from './holdings.service';
import { PortfolioSummaryService } from './portfolio-summary.service';

export interface PortfolioHistory {
  period: HistoryPeriod;
  benchmark: string;
  points: HistoryPoint[];
  /** Each position's share of the period's return (the last point's), largest first. */
  contributions: readonly PositionContribution[];
  asOf: Date;
}

/**
 * Benchmark closes are fetched from this many sessions before the history's start, so that its
 * base (the last close on or before the start) is among them across holidays and data gaps.
 */
const BENCHMARK_BASE_SESSIONS = 5;

/** The daily value series of the ledger for charts, beside a benchmark. */
@Injectable()
export class PortfolioHistoryService {
  constructor(
    private readonly holdings: HoldingsService,
    private readonly summaries: PortfolioSummaryService,
  ) {}

  /** 404 `Stock <benchmark> not found` for a benchmark without history. */
  async history(
    userId: number,
    period: HistoryPeriod,
    rawBenchmark: string,
    accountId?: number,
  ): Promise<PortfolioHistory> {
    const benchmark = normalizeSymbol(rawBenchmark);
    const snapshot = await this.holdings.snapshot(userId, accountId);
    const asOf = exchangeDay(snapshot.asOf);
    const valuations = await this.summaries.dailyValuations(snapshot);
    const start = historyStart(period, asOf, valuations[0]?.date ?? asOf);
    const closes = await this.holdings.dailyCloses(
      [benchmark],
      nyseSessionsBefore(start, BENCHMARK_BASE_SESSIONS),
    );
    const benchmarkCloses = closes.get(benchmark) ?? [];
    if (benchmarkCloses.length === 0) throw new NotFoundError(ErrorDetail.stockNotFound(benchmark));
    return {
      period,
      benchmark,
      points: valueHistory(valuations, benchmarkCloses, period, asOf),
      contributions: await this.summaries.contributions(snapshot, start),
      asOf: snapshot.asOf,
    };
  }
}
