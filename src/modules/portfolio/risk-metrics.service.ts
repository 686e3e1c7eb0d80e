import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { ErrorDetail } from '../../common/errors/error-details';
import { portfolioConfig } from '../../config/portfolio.config';
import { normalizeSymbol } from '../market/market-symbols';
import { PreferencesService } from '../preferences/preferences.service';
import { compareWithRiskTolerance, RISK_LEVELS, RiskLevel } from './analytics/risk-level';
import { computeRiskMetrics, RiskMetrics } from './analytics/risk-metrics';
import { utcDay } from './analytics/time-weighted-returns';
import { HoldingsService, HoldingsSnapshot } from './holdings.service';

export const DEFAULT_BENCHMARK = '^GSPC';
export const DEFAULT_LOOKBACK_DAYS = 252;

export interface PortfolioRiskMetrics extends RiskMetrics {
  lookbackDays: number;
  benchmark: string;
  riskFreeRate: number;
  riskTolerance: RiskLevel | null;
  matchesPreferences: boolean | null;
  asOf: Date;
}

/** Risk of the current holdings over a lookback window, compared with the user's stated tolerance. */
@Injectable()
export class RiskMetricsService {
  constructor(
    private readonly holdings: HoldingsService,
    private readonly preferences: PreferencesService,
    @Inject(portfolioConfig.KEY) private readonly config: ConfigType<typeof portfolioConfig>,
  ) {}

  async riskMetrics(userId: number, lookbackDays: number, benchmark: string): Promise<PortfolioRiskMetrics> {
    return this.assess(userId, await this.holdings.snapshot(userId), lookbackDays, benchmark);
  }

  /** 404 `Stock <benchmark> not found` for a benchmark without history. */
  async assess(
    userId: number,
    snapshot: HoldingsSnapshot,
    lookbackDays = DEFAULT_LOOKBACK_DAYS,
    rawBenchmark = DEFAULT_BENCHMARK,
  ): Promise<PortfolioRiskMetrics> {
    const benchmark = normalizeSymbol(rawBenchmark);
    const symbols = snapshot.positions.map((position) => position.symbol);
    const from = calendarDaysBefore(snapshot.asOf, lookbackWindowInCalendarDays(lookbackDays));
    const [closes, preferences] = await Promise.all([
      this.holdings.dailyCloses([...new Set([...symbols, benchmark])], from),
      this.preferences.findForUser(userId),
    ]);
    const benchmarkCloses = closes.get(benchmark) ?? [];
    if (benchmarkCloses.length === 0) throw new NotFoundException(ErrorDetail.stockNotFound(benchmark));

    const metrics = computeRiskMetrics({
      holdings: snapshot.positions.map((position) => ({
        symbol: position.symbol,
        sector: position.sector,
        marketValue: position.marketValue,
      })),
      closesBySymbol: closes,
      benchmark: { symbol: benchmark, closes: benchmarkCloses },
      lookbackDays,
      annualRiskFreeRate: this.config.riskFreeRate,
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
    };
  }
}

/** Enough calendar days to hold `tradingDays` + 1 closes: 7/5 of them plus a margin for holidays and gaps. */
function lookbackWindowInCalendarDays(tradingDays: number): number {
  return Math.ceil(((tradingDays + 1) * 7) / 5) + 14;
}

function calendarDaysBefore(instant: Date, days: number): string {
  return utcDay(new Date(instant.getTime() - days * 86_400_000));
}

function toRiskLevel(value: string | undefined): RiskLevel | null {
  return (RISK_LEVELS as readonly string[]).includes(value ?? '') ? (value as RiskLevel) : null;
}
