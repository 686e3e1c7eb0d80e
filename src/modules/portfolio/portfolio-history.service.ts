import { Injectable } from '@nestjs/common';
import { nyseSessionsBefore } from '../../common/calendar/nyse-calendar';
import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { CountedLru } from '../../common/metrics/cache-counters';
import { normalizeSymbol } from '../market';
import { PositionContribution } from './analytics/contribution';
import { exchangeDay, HistoryPeriod } from './analytics/time-weighted-returns';
import { historyStart, HistoryPoint, valueHistory } from './analytics/value-history';
import { HoldingsService, ledgerOwner } from './holdings.service';
import { PortfolioSummaryService } from './portfolio-summary.service';
import { seriesVersion } from './same-series';

export interface PortfolioHistory {
  period: HistoryPeriod;
  benchmark: string;
  /** Frozen, and the very same list while the history's inputs are the same (not for an empty ledger). */
  points: readonly HistoryPoint[];
  /** Each position's share of the period's return (the last point's), largest first. */
  contributions: readonly PositionContribution[];
  asOf: Date;
}

/**
 * Benchmark closes are fetched from this many sessions before the history's start, so that its
 * base (the last close on or before the start) is among them across holidays and data gaps.
 */
const BENCHMARK_BASE_SESSIONS = 5;

/** The most points (and contributions) kept: 250 full charts of 400 points, about 10 MB of the V8 heap. */
export const KEPT_HISTORY_POINTS = 100_000;

/** What a history charts: its points and each position's contribution to the last one's return. */
type Chart = Pick<PortfolioHistory, 'points' | 'contributions'>;

/** A chart, and what it was computed from. */
interface KeptChart extends Chart {
  /** `<valuations' inputs>|<benchmark series version>`: the entry is current while these are. */
  inputs: string;
}

/** The daily value series of the ledger for charts, beside a benchmark. */
@Injectable()
export class PortfolioHistoryService {
  /**
   * The latest chart of each user's ledger (one account, or all), period and benchmark, by
   * `<user>:<account>|<period>|<benchmark>`: a repeated read answers the same frozen points, whose
   * bytes the response keeps (serialized-rows.ts), and the same contributions, instead of computing
   * and serializing them again.
   */
  private readonly kept = new CountedLru<string, KeptChart>('portfolio-history', {
    maxSize: KEPT_HISTORY_POINTS,
    sizeCalculation: (chart) => chart.points.length + chart.contributions.length + 1,
  });

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
    const start = historyStart(period, asOf, valuations.days[0]?.date ?? asOf);
    const closes = await this.holdings.dailyCloses(
      [benchmark],
      nyseSessionsBefore(start, BENCHMARK_BASE_SESSIONS),
    );
    const benchmarkCloses = closes.get(benchmark) ?? [];
    if (benchmarkCloses.length === 0) throw new NotFoundError(ErrorDetail.stockNotFound(benchmark));

    const chart = async (): Promise<Chart> => ({
      points: valueHistory(valuations.days, benchmarkCloses, period, asOf),
      contributions: await this.summaries.contributions(snapshot, start),
    });
    // An empty ledger's valuations name no version to keep its chart by (it has no points anyway).
    const { points, contributions } =
      valuations.inputs === ''
        ? await chart()
        : await this.keptChart(
            `${ledgerOwner(userId, accountId)}|${period}|${benchmark}`,
            `${valuations.inputs}|${seriesVersion(benchmarkCloses)}`,
            chart,
          );
    return { period, benchmark, points, contributions, asOf: snapshot.asOf };
  }

  /** The chart kept in `slot` while computed from `inputs`; otherwise computed, its points frozen, and kept. */
  private async keptChart(slot: string, inputs: string, compute: () => Promise<Chart>): Promise<Chart> {
    const kept = this.kept.getCurrent(slot, (chart) => chart.inputs === inputs);
    if (kept) return kept;
    const { points, contributions } = await compute();
    const chart = { inputs, points: Object.freeze(points), contributions };
    this.kept.set(slot, chart);
    return chart;
  }
}
