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
import { CorrelationMatrix, correlationMatrix } from './correlation-matrix';
import { alignDailyReturns, constantWeightPortfolioReturns, DailyClose, wealthIndex } from './daily-returns';
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

export function computeRiskMetrics(input: RiskMetricsInput): RiskMetrics {
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
  const returnsSide = portfolioReturnSeries(weighted, input, notes);
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
    result.topHoldingsCorrelation = correlationMatrix(topSymbols, aligned.returnsBySymbol);
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

  const series = new Map<string, readonly DailyClose[]>();
  for (const holding of pricedHoldings) series.set(holding.symbol, input.closesBySymbol.get(holding.symbol)!);
  const benchmark = input.benchmark && input.benchmark.closes.length > 0 ? input.benchmark : null;
  if (benchmark) series.set(benchmark.symbol, benchmark.closes);
  else notes.push('No benchmark history, so beta and correlation are not available.');

  const aligned = alignDailyReturns(series, input.lookbackDays, input.through);
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
