// Every risk figure of a portfolio from its current holdings and their daily closes, holding
// today's weights constant over the lookback window.
import { betaToBenchmark, correlationToBenchmark } from './benchmark-sensitivity';
import {
  effectiveNumberOfHoldings,
  herfindahlIndex,
  largestWeight,
  SectorWeight,
  sectorWeights,
  WeightedHolding,
} from './concentration';
import { CorrelationMatrix, correlationMatrix, PairCorrelation } from './correlation-matrix';
import {
  AlignedReturns,
  alignDailyReturns,
  constantWeightPortfolioReturns,
  DailyClose,
  wealthIndex,
} from './daily-returns';
import { pearsonCorrelation } from './statistics';
import { Drawdown, maxDrawdown } from './max-drawdown';
import { assessRiskLevel, RiskLevel } from './risk-level';
import { sharpeRatio, sortinoRatio } from './risk-adjusted-return';
import { historicalTailRisk } from './value-at-risk';
import { annualisedMeanReturn, annualisedVolatility } from './volatility';

export const TAIL_RISK_CONFIDENCES = [0.95, 0.99] as const;
export const CORRELATED_HOLDINGS_LIMIT = 10;

export interface RiskHolding {
  symbol: string;
  sector: string;
  marketValue: number;
}

export interface RiskMetricsInput {
  holdings: readonly RiskHolding[];
  closesBySymbol: ReadonlyMap<string, readonly DailyClose[]>;
  benchmark: { symbol: string; closes: readonly DailyClose[] } | null;
  lookbackDays: number;
  annualRiskFreeRate: number;
  /** The last date whose closes count (YYYY-MM-DD); later closes, e.g. a session still running, are left out. */
  through?: string;
}

export interface TailRiskAtConfidence {
  confidence: number;
  valueAtRisk: number;
  valueAtRiskAmount: number;
  conditionalValueAtRisk: number;
  conditionalValueAtRiskAmount: number;
}

export interface RiskMetrics {
  totalValue: number;
  window: { startDate: string; endDate: string; observations: number } | null;
  annualisedReturn: number | null;
  volatility: number | null;
  beta: number | null;
  correlation: number | null;
  sharpeRatio: number | null;
  sortinoRatio: number | null;
  drawdown: Drawdown | null;
  tailRisk: TailRiskAtConfidence[] | null;
  concentration: {
    herfindahlIndex: number;
    effectiveHoldings: number;
    largestWeight: WeightedHolding;
  } | null;
  sectorConcentration: { herfindahlIndex: number; sectors: SectorWeight[] } | null;
  topHoldingsCorrelation: CorrelationMatrix | null;
  riskLevel: RiskLevel | null;
  notes: string[];
}

/** Fewer daily returns than this give no meaningful deviation. */
export const MINIMUM_OBSERVATIONS = 2;

/**
 * What the return-based figures take from the closes alone: the daily returns of the holdings
 * that have closes and of the benchmark on their common calendar over the window (null when none
 * of the holdings has closes or fewer than two prices overlap), and the correlation of each pair
 * of them measured so far. The holdings' market values play no part, so one history serves
 * while only they move, and every portfolio of the same symbols.
 */
export interface ReturnHistory {
  aligned: AlignedReturns | null;
  /** By `<symbol> <symbol>`, in the order the pair was asked. */
  correlations: Map<string, number | null>;
}

/** The return history of the input's holdings, benchmark, window and last counted close. */
export function returnHistory(input: RiskMetricsInput): ReturnHistory {
  const series = new Map<string, readonly DailyClose[]>();
  for (const holding of input.holdings) {
    const closes = input.closesBySymbol.get(holding.symbol);
    if (closes && closes.length > 0) series.set(holding.symbol, closes);
  }
  if (series.size === 0) return { aligned: null, correlations: new Map() };
  if (input.benchmark && input.benchmark.closes.length > 0)
    series.set(input.benchmark.symbol, input.benchmark.closes);
  return { aligned: alignDailyReturns(series, input.lookbackDays, input.through), correlations: new Map() };
}

/**
 * Every risk figure of the input. `history` is `returnHistory(input)`, or one computed earlier
 * from the same holdings' symbols, benchmark, window and closes: the figures are the same.
 */
export function computeRiskMetrics(
  input: RiskMetricsInput,
  history: ReturnHistory = returnHistory(input),
): RiskMetrics {
  const totalValue = input.holdings.reduce((sum, holding) => sum + holding.marketValue, 0);
  const empty: RiskMetrics = {
    totalValue,
    window: null,
    annualisedReturn: null,
    volatility: null,
    beta: null,
    correlation: null,
    sharpeRatio: null,
    sortinoRatio: null,
    drawdown: null,
    tailRisk: null,
    concentration: null,
    sectorConcentration: null,
    topHoldingsCorrelation: null,
    riskLevel: null,
    notes: [],
  };
  if (input.holdings.length === 0 || totalValue <= 0) {
    return { ...empty, notes: ['The portfolio has no positions, so there is nothing to measure yet.'] };
  }

  const weighted: WeightedHolding[] = input.holdings
    .map((holding) => ({
      symbol: holding.symbol,
      sector: holding.sector,
      weight: holding.marketValue / totalValue,
    }))
    .sort((a, b) => b.weight - a.weight || a.symbol.localeCompare(b.symbol));
  const weights = weighted.map((holding) => holding.weight);
  const sectors = sectorWeights(weighted);
  const concentration = {
    herfindahlIndex: herfindahlIndex(weights),
    effectiveHoldings: effectiveNumberOfHoldings(weights),
    largestWeight: largestWeight(weighted),
  };
  const sectorConcentration = {
    herfindahlIndex: herfindahlIndex(sectors.map((sector) => sector.weight)),
    sectors,
  };

  const notes: string[] = [];
  const returnsSide = portfolioReturnSeries(weighted, input, history.aligned, notes);
  const result: RiskMetrics = { ...empty, concentration, sectorConcentration };

  if (returnsSide) {
    const { aligned, portfolioReturns, benchmarkReturns, pricedHoldings } = returnsSide;
    result.window = {
      startDate: aligned.startDate,
      endDate: aligned.dates[aligned.dates.length - 1],
      observations: portfolioReturns.length,
    };
    result.annualisedReturn = annualisedMeanReturn(portfolioReturns);
    result.volatility = annualisedVolatility(portfolioReturns);
    result.sharpeRatio = sharpeRatio(portfolioReturns, input.annualRiskFreeRate);
    result.sortinoRatio = sortinoRatio(portfolioReturns, input.annualRiskFreeRate);
    result.drawdown = maxDrawdown(wealthIndex(aligned.startDate, aligned.dates, portfolioReturns));
    result.tailRisk = TAIL_RISK_CONFIDENCES.map((confidence) => {
      const tail = historicalTailRisk(portfolioReturns, confidence);
      return {
        confidence,
        valueAtRisk: tail.valueAtRisk,
        valueAtRiskAmount: tail.valueAtRisk * totalValue,
        conditionalValueAtRisk: tail.conditionalValueAtRisk,
        conditionalValueAtRiskAmount: tail.conditionalValueAtRisk * totalValue,
      };
    });
    if (benchmarkReturns) {
      result.beta = betaToBenchmark(portfolioReturns, benchmarkReturns);
      result.correlation = correlationToBenchmark(portfolioReturns, benchmarkReturns);
    }
    const topSymbols = pricedHoldings.slice(0, CORRELATED_HOLDINGS_LIMIT).map((holding) => holding.symbol);
    result.topHoldingsCorrelation = correlationMatrix(
      topSymbols,
      aligned.returnsBySymbol,
      knownCorrelation(history.correlations),
    );
    if (portfolioReturns.length < input.lookbackDays) {
      notes.push(
        `Only ${portfolioReturns.length} daily returns are available for all holdings (${input.lookbackDays} requested).`,
      );
    }
  }

  const assessment = assessRiskLevel({
    volatility: result.volatility,
    largestWeight: concentration.largestWeight,
    effectiveHoldings: concentration.effectiveHoldings,
  });
  result.riskLevel = assessment.riskLevel;
  result.notes = [...notes, ...assessment.notes];
  return result;
}

function portfolioReturnSeries(
  weighted: readonly WeightedHolding[],
  input: RiskMetricsInput,
  aligned: AlignedReturns | null,
  notes: string[],
) {
  const pricedHoldings = weighted.filter(
    (holding) => (input.closesBySymbol.get(holding.symbol)?.length ?? 0) > 0,
  );
  const unpriced = weighted
    .filter((holding) => !pricedHoldings.includes(holding))
    .map((holding) => holding.symbol);
  if (unpriced.length > 0) {
    notes.push(`No price history for ${unpriced.join(', ')}; left out of the return-based metrics.`);
  }
  if (pricedHoldings.length === 0) return null;

  const benchmark = input.benchmark && input.benchmark.closes.length > 0 ? input.benchmark : null;
  if (!benchmark) notes.push('No benchmark history, so beta and correlation are not available.');

  if (!aligned || aligned.dates.length < MINIMUM_OBSERVATIONS) {
    notes.push('Too little common price history to compute return-based metrics.');
    return null;
  }
  // Weights renormalised over the priced holdings so that they still sum to 1.
  const pricedTotal = pricedHoldings.reduce((sum, holding) => sum + holding.weight, 0);
  const weights = new Map(pricedHoldings.map((holding) => [holding.symbol, holding.weight / pricedTotal]));
  const portfolioReturns = constantWeightPortfolioReturns(aligned.returnsBySymbol, weights);
  const benchmarkReturns = benchmark ? aligned.returnsBySymbol.get(benchmark.symbol)! : null;
  return { aligned, portfolioReturns, benchmarkReturns, pricedHoldings };
}

/** Pearson correlations remembered in `known`, measured on first request. */
function knownCorrelation(known: Map<string, number | null>): PairCorrelation {
  return ([a, b], [xs, ys]) => {
    const key = `${a} ${b}`;
    let correlation = known.get(key);
    if (correlation === undefined) {
      correlation = pearsonCorrelation(xs, ys);
      known.set(key, correlation);
    }
    return correlation;
  };
}
