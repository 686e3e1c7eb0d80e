import type { Schemas } from '@investment-assistant/client';
import { formatMoney, formatWeight } from './format';

export type Depth = Schemas['AnalysisDepth'];
export const DEPTHS: Depth[] = ['simple', 'detailed', 'technical'];
type Metrics = Schemas['RiskMetricsResponse'];

/** One metric: its figure, and what it means in sentences that grow with the depth. */
export interface ExplainedMetric {
  name: string;
  value: string;
  /** A plain sentence (simple), then how to read it (detailed), then how it is computed (technical). */
  explanation: string[];
}

/** A fraction (0.25) as a percent (25 %). */
const share = (fraction: number) => formatWeight(fraction * 100);
const decimal = (value: number) => value.toFixed(2);

/** Sentences up to `depth`: the first always, the second from detailed, the third at technical. */
function upTo(depth: Depth, simple: string, detailed: string, technical: string): string[] {
  return [simple, ...(depth === 'simple' ? [] : [detailed]), ...(depth === 'technical' ? [technical] : [])];
}

/**
 * The risk metrics of GET /portfolio/risk-metrics in plain language at the reader's
 * `analysis_depth`: each metric the response has (null ones are left out), with the user's own
 * figures in the sentences.
 */
export function explainRisk(metrics: Metrics, depth: Depth): ExplainedMetric[] {
  const explained: ExplainedMetric[] = [];
  const days = metrics.window?.observations ?? metrics.lookback_days;
  const benchmark = metrics.benchmark;
  const riskFree = share(metrics.risk_free_rate);

  if (metrics.annualised_return !== null) {
    explained.push({
      name: 'Annual return',
      value: share(metrics.annualised_return),
      explanation: upTo(
        depth,
        `Over the last ${days} trading days your current holdings gained ${share(metrics.annualised_return)} a year on average.`,
        'It is a past average at today’s weights, not a forecast: one strong or weak month moves it a lot.',
        'Arithmetic mean of the daily returns × 252, today’s weights held constant over the window.',
      ),
    });
  }
  if (metrics.volatility !== null) {
    explained.push({
      name: 'Volatility',
      value: share(metrics.volatility),
      explanation: upTo(
        depth,
        `In a typical year the portfolio’s value swings up or down by about ${share(metrics.volatility)}.`,
        'Below 12 % reads as conservative, 12–20 % as moderate, above 20 % as aggressive: these are the ' +
          'bands of the risk level. Higher volatility means wider swings both ways.',
        'Sample standard deviation (n − 1) of the daily portfolio returns × √252.',
      ),
    });
  }
  if (metrics.beta !== null) {
    explained.push({
      name: `Beta against ${benchmark}`,
      value: decimal(metrics.beta),
      explanation: upTo(
        depth,
        `When ${benchmark} moves by 1 %, your portfolio has tended to move by about ${decimal(metrics.beta)} %.`,
        'Above 1 the portfolio amplifies the market’s moves, below 1 it dampens them; it says nothing about ' +
          'the risks your holdings do not share with the market.',
        'Cov(r_p, r_b) / Var(r_b) with sample estimators over the daily returns of the window.',
      ),
    });
  }
  if (metrics.correlation !== null) {
    explained.push({
      name: `Correlation with ${benchmark}`,
      value: decimal(metrics.correlation),
      explanation: upTo(
        depth,
        `How closely the portfolio follows ${benchmark}: 1 is in step, 0 unrelated; yours is ${decimal(metrics.correlation)}.`,
        'A low correlation means your results depend more on your own holdings than on the market.',
        'Pearson correlation of the daily portfolio and benchmark returns.',
      ),
    });
  }
  if (metrics.sharpe_ratio !== null) {
    explained.push({
      name: 'Sharpe ratio',
      value: decimal(metrics.sharpe_ratio),
      explanation: upTo(
        depth,
        'The return earned for each unit of risk taken: above 1 is good, below 0 means cash would have done better.',
        `It takes off what a risk-free deposit pays (${riskFree} a year) and divides by the volatility, so ` +
          'portfolios of different risk can be compared.',
        'mean(r − rf/252) / s(r) × √252, with s the sample standard deviation of the daily returns.',
      ),
    });
  }
  if (metrics.sortino_ratio !== null) {
    explained.push({
      name: 'Sortino ratio',
      value: decimal(metrics.sortino_ratio),
      explanation: upTo(
        depth,
        'Like the Sharpe ratio, but only the falls count as risk.',
        'A Sortino well above the Sharpe ratio means much of the volatility was on the way up.',
        'mean(r − rf/252) / DD × √252 with the downside deviation DD = √(Σ min(0, r − rf/252)² / n).',
      ),
    });
  }
  if (metrics.max_drawdown !== null) {
    const fall = metrics.max_drawdown.max_drawdown;
    const dates =
      metrics.max_drawdown.peak_date && metrics.max_drawdown.trough_date
        ? ` (from ${metrics.max_drawdown.peak_date} to ${metrics.max_drawdown.trough_date})`
        : '';
    explained.push({
      name: 'Largest fall',
      value: share(fall),
      explanation: upTo(
        depth,
        `The deepest fall from a high point was ${share(fall)}${dates}.`,
        fall > 0 && fall < 1
          ? `It is the worst loss someone buying at the top would have lived through; getting back from it takes a gain of ${share(fall / (1 - fall))}.`
          : 'It is the worst loss someone buying at the top would have lived through.',
        'Maximum drawdown: the largest 1 − W_t / max(W_s, s ≤ t) of the wealth index W of the daily returns.',
      ),
    });
  }
  for (const tail of metrics.value_at_risk ?? []) {
    const confidence = Math.round(tail.confidence * 100);
    const odds =
      confidence === 95
        ? '19 days out of 20'
        : confidence === 99
          ? '99 days out of 100'
          : `${confidence} % of days`;
    explained.push({
      name: `Value at risk, ${confidence} %`,
      value: `${formatMoney(tail.var_amount)} (${share(tail.var)})`,
      explanation: upTo(
        depth,
        `On ${odds} the portfolio should not lose more than ${formatMoney(tail.var_amount)} in a day.`,
        `On the other days the loss averaged ${formatMoney(tail.cvar_amount)} (${share(tail.cvar)}), the expected shortfall: ` +
          'the bad days are worse than the threshold.',
        `Historical 1-day VaR: the ${100 - confidence} % quantile of the window’s daily returns, no distribution ` +
          'assumed; CVaR is the mean return at or beyond it; amounts × the holdings’ value.',
      ),
    });
  }
  const concentration = metrics.concentration;
  if (concentration !== null) {
    const cluster =
      concentration.largest_cluster_weight !== null && concentration.largest_cluster_members.length > 1
        ? ` ${concentration.largest_cluster_members.join(', ')} move together and make up ${share(concentration.largest_cluster_weight)}: they are one bet.`
        : '';
    explained.push({
      name: 'Concentration',
      value: `${concentration.largest_weight.symbol} ${share(concentration.largest_weight.weight)}`,
      explanation: upTo(
        depth,
        `Your largest holding, ${concentration.largest_weight.symbol}, is ${share(concentration.largest_weight.weight)} ` +
          `of the portfolio; it is spread like ${decimal(concentration.effective_holdings)} equal holdings.`,
        'Fewer than 4 equal holdings’ worth reads as aggressive, fewer than 10 as moderate; a largest holding ' +
          `above 40 % as aggressive, above 20 % as moderate.${cluster}`,
        `Herfindahl index Σw² = ${concentration.herfindahl_index.toFixed(4)}; effective holdings 1 / Σw²` +
          (concentration.effective_independent_bets !== null
            ? `; effective independent bets (Σw)² / ΣΣ wᵢwⱼρᵢⱼ = ${decimal(concentration.effective_independent_bets)}.`
            : '.'),
      ),
    });
  }
  const sectors = metrics.sector_concentration;
  if (sectors !== null && sectors.sectors.length > 0) {
    const [top] = sectors.sectors;
    explained.push({
      name: 'Sectors',
      value: `${top.sector} ${share(top.weight)}`,
      explanation: upTo(
        depth,
        `${share(top.weight)} of the portfolio is in ${top.sector}, across ${sectors.sectors.length} ` +
          `${sectors.sectors.length === 1 ? 'sector' : 'sectors'}.`,
        'Spread across sectors, a bad year for one industry hurts the whole portfolio less.',
        `Herfindahl index over the sector weights: ${sectors.herfindahl_index.toFixed(4)}.`,
      ),
    });
  }
  return explained;
}

/** The risk level against the tolerance, in one or more sentences by depth. */
export function explainLevel(metrics: Metrics, depth: Depth): string[] {
  if (metrics.risk_level === null) return ['There is not enough history yet to tell the risk level.'];
  const against =
    metrics.risk_tolerance === null
      ? 'Set your risk tolerance in your preferences to compare it with yours.'
      : metrics.matches_preferences
        ? `It matches your ${metrics.risk_tolerance} tolerance.`
        : `Your tolerance is ${metrics.risk_tolerance}: the portfolio does not match it.`;
  return upTo(
    depth,
    `The portfolio’s risk level is ${metrics.risk_level}. ${against}`,
    'The level is the higher of what the volatility says and what the concentration says.',
    'Volatility: moderate from 12 %, aggressive from 20 %; largest weight: moderate above 20 %, aggressive ' +
      'above 40 %; effective holdings: moderate below 10, aggressive below 4.',
  );
}
