import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { newYorkTime } from '../../common/time/new-york-time';
import {
  addDays,
  nyseCloseMinute,
  nyseSessionsBefore,
  REGULAR_CLOSE_MINUTE,
} from '../../common/calendar/nyse-calendar';
import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { portfolioConfig } from '../../config/portfolio.config';
import { normalizeSymbol } from '../market';
import { PreferencesService } from '../preferences';
import { compareWithRiskTolerance, RISK_LEVELS, RiskLevel } from './analytics/risk-level';
import { CountedLru } from '../../common/metrics/cache-counters';
import { computeRiskMetrics, RiskMetrics, RiskMetricsInput } from './analytics/risk-metrics';
import { ClusterConcentration } from '../graph';
import { HoldingsService, HoldingsSnapshot, ledgerOwner } from './holdings.service';
import { PortfolioGraphService } from './portfolio-graph.service';
import { ReturnHistories } from './return-histories';
import { seriesFingerprint } from './same-series';

export const DEFAULT_BENCHMARK = '^GSPC';
export const DEFAULT_LOOKBACK_DAYS = 252;

export interface PortfolioRiskMetrics extends RiskMetrics {
  lookbackDays: number;
  benchmark: string;
  riskFreeRate: number;
  riskTolerance: RiskLevel | null;
  matchesPreferences: boolean | null;
  asOf: Date;
  /** The market graph's co-movement view of the holdings; null when empty or the graph cannot answer. */
  clusterConcentration: ClusterConcentration | null;
}

/** Users × lookback windows whose last risk figures are kept. */
const KEPT_RISK_FIGURES = 1_000;

/** One computation's inputs, as a key (see RiskMetricsService.compute), and its result. */
interface ComputedRisk {
  inputs: string;
  metrics: RiskMetrics;
}

/** Risk of the current holdings over a lookback window, compared with the user's stated tolerance. */
@Injectable()
export class RiskMetricsService {
  /**
   * The last figures per `<user>:<account>:<window>:<benchmark>`. They are a pure function of their
   * inputs, so they are reused while those are the same: the holdings valued alike (which covers
   * the ledger version, the cost-basis method and the quotes), the last close counted, the
   * risk-free rate and the market-data version of the closes.
   */
  private readonly computed = new CountedLru<string, ComputedRisk>('portfolio-risk', {
    max: KEPT_RISK_FIGURES,
  });
  /** What the figures take from the closes alone, reused when only the holdings' values moved. */
  private readonly returnHistories = new ReturnHistories();

  constructor(
    private readonly holdings: HoldingsService,
    private readonly preferences: PreferencesService,
    private readonly graph: PortfolioGraphService,
    @Inject(portfolioConfig.KEY) private readonly config: ConfigType<typeof portfolioConfig>,
  ) {}

  async riskMetrics(
    userId: number,
    lookbackDays: number,
    benchmark: string,
    includeToday = false,
    accountId?: number,
  ): Promise<PortfolioRiskMetrics> {
    const snapshot = await this.holdings.snapshot(userId, accountId);
    return this.assess(userId, snapshot, lookbackDays, benchmark, includeToday);
  }

  /**
   * 404 `Stock <benchmark> not found` for a benchmark without history. Today's close counts only
   * once its session has closed, unless `includeToday` asks for the session so far.
   */
  async assess(
    userId: number,
    snapshot: HoldingsSnapshot,
    lookbackDays = DEFAULT_LOOKBACK_DAYS,
    rawBenchmark = DEFAULT_BENCHMARK,
    includeToday = false,
  ): Promise<PortfolioRiskMetrics> {
    const benchmark = normalizeSymbol(rawBenchmark);
    const symbols = snapshot.positions.map((position) => position.symbol);
    const today = newYorkTime(snapshot.asOf).date;
    const through = includeToday || sessionHasClosed(snapshot.asOf) ? today : addDays(today, -1);
    const from = nyseSessionsBefore(through, lookbackDays + 1 + MISSING_SESSIONS_MARGIN);
    const [closes, preferences, clusterConcentration] = await Promise.all([
      this.holdings.dailyCloses([...new Set([...symbols, benchmark])], from),
      this.preferences.findForUser(userId),
      symbols.length > 0 ? this.graph.clusterConcentration(snapshot) : null,
    ]);
    const benchmarkCloses = closes.get(benchmark) ?? [];
    if (benchmarkCloses.length === 0) throw new NotFoundError(ErrorDetail.stockNotFound(benchmark));

    const metrics = this.compute(`${ledgerOwner(userId, snapshot.accountId)}:${lookbackDays}:${benchmark}`, {
      holdings: snapshot.positions.map((position) => ({
        symbol: position.symbol,
        sector: position.sector,
        marketValue: position.marketValue,
      })),
      closesBySymbol: closes,
      benchmark: { symbol: benchmark, closes: benchmarkCloses },
      lookbackDays,
      annualRiskFreeRate: this.config.riskFreeRate,
      through,
    });
    const riskTolerance = toRiskLevel(preferences?.risk_tolerance);
    let matchesPreferences: boolean | null = null;
    const notes = [...metrics.notes];
    if (metrics.riskLevel && riskTolerance) {
      const comparison = compareWithRiskTolerance(metrics.riskLevel, riskTolerance);
      matchesPreferences = comparison.matches;
      notes.push(comparison.note);
    } else if (metrics.riskLevel && !preferences) {
      notes.push('No preferences are set, so the risk level is not compared with a risk tolerance.');
    }
    return {
      ...metrics,
      notes,
      lookbackDays,
      benchmark,
      riskFreeRate: this.config.riskFreeRate,
      riskTolerance,
      matchesPreferences,
      asOf: snapshot.asOf,
      clusterConcentration,
    };
  }

  private compute(slot: string, input: RiskMetricsInput): RiskMetrics {
    const benchmark =
      input.benchmark === null
        ? ''
        : `${input.benchmark.symbol}=${seriesFingerprint(new Map([['', input.benchmark.closes]]))}`;
    const holdings = input.holdings
      .map((holding) => `${holding.symbol}:${holding.sector}:${holding.marketValue}`)
      .join(',');
    const inputs = [
      holdings,
      seriesFingerprint(input.closesBySymbol),
      benchmark,
      input.lookbackDays,
      input.through ?? '',
      input.annualRiskFreeRate,
    ].join('|');
    const earlier = this.computed.getCurrent(slot, (entry) => entry.inputs === inputs);
    if (earlier) return earlier.metrics;
    const metrics = computeRiskMetrics(input, this.returnHistories.of(input));
    this.computed.set(slot, { inputs, metrics });
    return metrics;
  }
}

/**
 * Sessions fetched beyond the lookback window's N + 1 closes, for days a provider misses. The
 * window is counted back on the NYSE calendar, so holidays are already accounted for; a provider
 * without holidays (the replay) simply returns more closes than needed.
 */
const MISSING_SESSIONS_MARGIN = 5;

/**
 * Whether the New York session of the instant's day is over (16:00, 13:00 on early closes). A day
 * the NYSE calendar has no session on counts as closed at 16:00, for providers that quote it anyway.
 */
function sessionHasClosed(instant: Date): boolean {
  const { date, msOfDay } = newYorkTime(instant);
  return msOfDay >= (nyseCloseMinute(date) ?? REGULAR_CLOSE_MINUTE) * 60_000;
}

function toRiskLevel(value: string | undefined): RiskLevel | null {
  return (RISK_LEVELS as readonly string[]).includes(value ?? '') ? (value as RiskLevel) : null;
}
