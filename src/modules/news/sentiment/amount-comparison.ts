import { MetricKind, Polarity } from './financial.lexicon';
import { Amount, Unit, isAmountSyntax, lastMetricBefore, metricAhead } from './sentiment.units';

/** Moving between profit and loss outweighs whatever verb describes it. */
export const PROFIT_LOSS_TRANSITION_WEIGHT = 1.2;
/** "X compared to Y" for a known quantity. */
const COMPARISON_WEIGHT = 1;
const AMOUNT_BEFORE_COMPARATOR_REACH = 10;
const AMOUNT_AFTER_COMPARATOR_REACH = 12;

export interface Comparison {
  value: number;
  /** Profit on one side, loss on the other: decisive over any verb in the clause. */
  isTransition: boolean;
}

function signedAmount(amount: Amount, kind: MetricKind): number {
  return kind === 'loss' ? -amount.value : amount.value;
}

function isOutsideParentheses(unit: Unit): boolean {
  return unit.amount !== undefined && !unit.inParentheses;
}

/** The amount before a comparator; of "7.99 mln euro $ 10.4 mln" the first, the reporting currency. */
function amountBefore(units: Unit[], comparator: number, start: number): number | undefined {
  let found: number | undefined;
  for (
    let index = comparator - 1;
    index >= Math.max(start, comparator - AMOUNT_BEFORE_COMPARATOR_REACH);
    index -= 1
  ) {
    const unit = units[index];
    if (unit.entry?.type === 'comparator') break;
    if (isOutsideParentheses(unit)) {
      found = index;
      continue;
    }
    if (found !== undefined && !isAmountSyntax(unit)) break;
  }
  return found;
}

function amountAfter(units: Unit[], comparator: number, end: number): number | undefined {
  for (
    let index = comparator + 1;
    index < Math.min(end, comparator + AMOUNT_AFTER_COMPARATOR_REACH);
    index += 1
  ) {
    if (isOutsideParentheses(units[index])) return index;
  }
  return undefined;
}

/**
 * "EUR 5.2 mn compared to EUR 3.4 mn", "a loss of X versus a profit of Y": compares the amounts on
 * both sides of a comparator on the quantity's signed scale (a loss is a negative profit).
 */
export function compareAmounts(
  units: Unit[],
  start: number,
  end: number,
  comparator: number,
): Comparison | undefined {
  const before = amountBefore(units, comparator, start);
  const after = amountAfter(units, comparator, end);
  if (before === undefined || after === undefined) return undefined;
  const current = units[before].amount as Amount;
  const previous = units[after].amount as Amount;
  if (current.isPercent !== previous.isPercent) return undefined;
  const currentMetric = lastMetricBefore(units, start, before) ?? metricAhead(units, before, comparator, 5);
  if (currentMetric === undefined) return undefined;
  const previousMetric =
    lastMetricBefore(units, comparator + 1, after) ?? metricAhead(units, after, end, 4) ?? currentMetric;
  const currentValue = signedAmount(current, currentMetric.kind);
  const previousValue = signedAmount(previous, previousMetric.kind);
  const difference = currentValue - previousValue;
  if (!Number.isFinite(difference) || difference === 0) return undefined;
  const isTransition =
    currentMetric.kind !== previousMetric.kind &&
    currentMetric.kind !== 'other' &&
    previousMetric.kind !== 'other';
  if (isTransition) return { value: Math.sign(difference) * PROFIT_LOSS_TRANSITION_WEIGHT, isTransition };
  const polarity: Polarity = currentMetric.kind === 'other' ? currentMetric.polarity : 1;
  return { value: Math.sign(difference) * polarity * COMPARISON_WEIGHT, isTransition };
}
