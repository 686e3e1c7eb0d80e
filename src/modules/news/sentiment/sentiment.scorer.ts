import { LEXICON_BY_FIRST_WORD, LexiconEntry, MetricKind, Polarity } from './financial.lexicon';
import { Token, TokenKind, tokenize } from './sentiment.tokenizer';

/** Weight of a change whose quantity is known ("profit fell"): the strongest ordinary evidence. */
const QUANTIFIED_CHANGE_WEIGHT = 1;
/** A change with no known quantity ("the figure rose") is weak evidence: most such lines are neutral. */
const UNQUANTIFIED_CHANGE_WEIGHT = 0.35;
/** Moving between profit and loss outweighs whatever verb describes it. */
const PROFIT_LOSS_TRANSITION_WEIGHT = 1.2;
/** "X compared to Y" for a known quantity. */
const COMPARISON_WEIGHT = 1;
/** Differences smaller than this share of the larger value count as no change. */
const COMPARISON_TOLERANCE = 0.005;
/** What the part of a sentence before "but"/"however" still counts for. */
const BEFORE_CONTRAST_WEIGHT = 0.5;
/** What a concession ("although …", "despite …") counts for against the main clause. */
const CONCESSION_WEIGHT = 0.5;
/** The description adds to the title's evidence, at a lower weight. */
const DESCRIPTION_WEIGHT = 0.6;
/** How far (in units) modifiers and negators reach towards the word they modify. */
const NEGATION_REACH = 3;
const SCALER_REACH = 2;
const LOOK_AHEAD_REACH = 4;

interface Amount {
  value: number;
  isPercent: boolean;
}

interface Unit {
  kind: TokenKind;
  entry: LexiconEntry | undefined;
  amount: Amount | undefined;
  inParentheses: boolean;
}

type MetricEntry = Extract<LexiconEntry, { type: 'metric' }>;

interface Evidence {
  value: number;
  unit: number;
  fromChange: boolean;
}

function matchPhrase(tokens: Token[], start: number): { entry: LexiconEntry; length: number } | undefined {
  const candidates = LEXICON_BY_FIRST_WORD.get(tokens[start].text);
  if (candidates === undefined) return undefined;
  for (const { words, entry } of candidates) {
    if (start + words.length > tokens.length) continue;
    let matches = true;
    for (let offset = 1; offset < words.length; offset += 1) {
      const token = tokens[start + offset];
      if (token.kind !== 'word' || token.text !== words[offset]) {
        matches = false;
        break;
      }
    }
    if (matches) return { entry, length: words.length };
  }
  return undefined;
}

/** Groups tokens into lexicon phrases (longest match first) and plain tokens. */
function toUnits(tokens: Token[]): { units: Unit[]; values: number[] } {
  const units: Unit[] = [];
  const values: number[] = [];
  let depth = 0;
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index];
    if (token.kind === 'open') depth += 1;
    const matched = token.kind === 'word' ? matchPhrase(tokens, index) : undefined;
    units.push({ kind: token.kind, entry: matched?.entry, amount: undefined, inParentheses: depth > 0 });
    values.push(token.value);
    if (token.kind === 'close' && depth > 0) depth -= 1;
    index += matched?.length ?? 1;
  }
  return { units, values };
}

function entryType(unit: Unit | undefined): LexiconEntry['type'] | undefined {
  return unit?.entry?.type;
}

/**
 * Marks the numbers that are amounts: a number with a currency, a magnitude or a percent sign,
 * or a bare decimal. Bare integers (years, counts, dates) are left out.
 */
function markAmounts(units: Unit[], values: number[]): void {
  for (let index = 0; index < units.length; index += 1) {
    const unit = units[index];
    if (unit.kind !== 'number') continue;
    let value = values[index];
    let hasUnit = false;
    let isPercent = false;
    let next = index + 1;
    const magnitude = units[next]?.entry;
    if (magnitude?.type === 'magnitude') {
      value *= magnitude.factor;
      hasUnit = true;
      next += 1;
    }
    const after = entryType(units[next]);
    if (after === 'percent') isPercent = hasUnit = true;
    if (after === 'currency') hasUnit = true;
    let before = index - 1;
    if (entryType(units[before]) === 'currency') {
      hasUnit = true;
      before -= 1;
    }
    if (entryType(units[before]) === 'negative-amount') value = -value;
    const isDecimal = !Number.isInteger(values[index]);
    if ((hasUnit || isDecimal) && Number.isFinite(value)) unit.amount = { value, isPercent };
  }
}

function scalerFactor(units: Unit[], at: number, start: number, end: number): number {
  let factor = 1;
  for (let index = Math.max(start, at - SCALER_REACH); index < at; index += 1) {
    const entry = units[index].entry;
    if (entry?.type === 'scaler') factor *= entry.factor;
  }
  const following = at + 1 < end ? units[at + 1].entry : undefined;
  if (following?.type === 'scaler') factor *= following.factor;
  return factor;
}

function isNegated(units: Unit[], at: number, start: number): boolean {
  for (let index = at - 1; index >= Math.max(start, at - NEGATION_REACH); index -= 1) {
    const unit = units[index];
    if (unit.kind === 'comma') return false;
    if (unit.entry?.type === 'negator') return true;
  }
  return false;
}

function isStop(unit: Unit): boolean {
  if (unit.kind === 'comma' || unit.kind === 'open' || unit.kind === 'close') return true;
  const type = unit.entry?.type;
  return (
    type === 'change' ||
    type === 'polar' ||
    type === 'comparator' ||
    type === 'into' ||
    type === 'steady' ||
    type === 'shift' ||
    type === 'negator' ||
    type === 'clause-break'
  );
}

/** The quantity a following phrase names: the head of a compound ("sales growth forecast" → forecast). */
function metricAhead(units: Unit[], from: number, end: number, reach: number): MetricEntry | undefined {
  for (let index = from + 1; index < end && index <= from + reach; index += 1) {
    const unit = units[index];
    if (unit.entry?.type === 'metric') {
      let head = unit.entry;
      for (let next = index + 1; next < end && units[next].entry?.type === 'metric'; next += 1) {
        head = units[next].entry as MetricEntry;
      }
      return head;
    }
    if (isStop(unit)) return undefined;
  }
  return undefined;
}

/** "fell to a net loss", "swung into profit": the kind of result the change ends in. */
function transitionTarget(units: Unit[], from: number, end: number): MetricKind | undefined {
  let index = from + 1;
  while (index < end && units[index].entry?.type === 'scaler') index += 1;
  if (index >= end || units[index].entry?.type !== 'into') return undefined;
  for (let next = index + 1; next < end && next <= index + 3; next += 1) {
    const entry = units[next].entry;
    if (entry?.type === 'metric') return entry.kind === 'other' ? undefined : entry.kind;
    if (entry !== undefined || units[next].kind !== 'word') return undefined;
  }
  return undefined;
}

function predicativeModifier(units: Unit[], at: number, end: number): boolean {
  const next = units[at + 1];
  return at + 1 >= end || next.kind !== 'word' || next.entry !== undefined;
}

function lastMetricBefore(units: Unit[], start: number, at: number): MetricEntry | undefined {
  for (let index = at - 1; index >= start; index -= 1) {
    const entry = units[index].entry;
    if (entry?.type === 'metric') return entry;
  }
  return undefined;
}

function signedAmount(amount: Amount, kind: MetricKind): number {
  return kind === 'loss' ? -amount.value : amount.value;
}

function findAmount(units: Unit[], from: number, to: number, step: 1 | -1): number | undefined {
  for (let index = from; step > 0 ? index < to : index >= to; index += step) {
    const unit = units[index];
    if (unit.amount !== undefined && !unit.inParentheses) return index;
    if (unit.entry?.type === 'comparator' && !unit.inParentheses) return undefined;
  }
  return undefined;
}

/**
 * "EUR 5.2 mn compared to EUR 3.4 mn", "a loss of X versus a profit of Y": compares the amounts on
 * both sides of a comparator on the quantity's signed scale.
 */
function compareAmounts(
  units: Unit[],
  start: number,
  end: number,
  comparator: number,
): { value: number; isTransition: boolean } | undefined {
  const before = findAmount(units, comparator - 1, Math.max(start, comparator - 10), -1);
  const after = findAmount(units, comparator + 1, Math.min(end, comparator + 9), 1);
  if (before === undefined || after === undefined) return undefined;
  const current = units[before].amount as Amount;
  const previous = units[after].amount as Amount;
  if (current.isPercent !== previous.isPercent) return undefined;
  const currentMetric = lastMetricBefore(units, start, before);
  if (currentMetric === undefined) return undefined;
  const previousMetric = lastMetricBefore(units, comparator + 1, after) ?? currentMetric;
  const currentValue = signedAmount(current, currentMetric.kind);
  const previousValue = signedAmount(previous, previousMetric.kind);
  const difference = currentValue - previousValue;
  const scale = Math.max(Math.abs(currentValue), Math.abs(previousValue));
  if (!Number.isFinite(difference) || Math.abs(difference) <= scale * COMPARISON_TOLERANCE) return undefined;
  const isTransition =
    currentMetric.kind !== previousMetric.kind &&
    currentMetric.kind !== 'other' &&
    previousMetric.kind !== 'other';
  if (isTransition) return { value: Math.sign(difference) * PROFIT_LOSS_TRANSITION_WEIGHT, isTransition };
  const polarity: Polarity = currentMetric.kind === 'other' ? currentMetric.polarity : 1;
  return { value: Math.sign(difference) * polarity * COMPARISON_WEIGHT, isTransition };
}

/** Evidence from one clause: a stretch of a sentence that talks about one thing. */
function clauseEvidence(units: Unit[], start: number, end: number): Evidence[] {
  const evidence: Evidence[] = [];
  let currentMetric: MetricEntry | undefined;
  let isSteady = false;
  const modify = (value: number, at: number): number =>
    value * scalerFactor(units, at, start, end) * (isNegated(units, at, start) ? -1 : 1);

  for (let index = start; index < end; index += 1) {
    const entry = units[index].entry;
    if (entry === undefined) continue;
    switch (entry.type) {
      case 'metric':
        currentMetric = entry;
        break;
      case 'steady':
        isSteady = true;
        break;
      case 'polar':
        evidence.push({ value: modify(entry.weight, index), unit: index, fromChange: false });
        break;
      case 'shift':
      case 'change': {
        const target = transitionTarget(units, index, end);
        if (target !== undefined) {
          const value = target === 'loss' ? -PROFIT_LOSS_TRANSITION_WEIGHT : PROFIT_LOSS_TRANSITION_WEIGHT;
          evidence.push({ value: modify(value, index), unit: index, fromChange: false });
          break;
        }
        if (entry.type === 'shift') break;
        let quantity: MetricEntry | undefined;
        if (entry.role === 'subject')
          quantity = currentMetric ?? metricAhead(units, index, end, LOOK_AHEAD_REACH);
        else if (entry.role === 'object')
          quantity = metricAhead(units, index, end, LOOK_AHEAD_REACH) ?? currentMetric;
        else {
          quantity =
            metricAhead(units, index, end, 2) ??
            (predicativeModifier(units, index, end) ? currentMetric : undefined);
          if (quantity === undefined) break;
        }
        const value =
          quantity === undefined
            ? entry.direction * UNQUANTIFIED_CHANGE_WEIGHT
            : entry.direction * quantity.polarity * QUANTIFIED_CHANGE_WEIGHT;
        if (value !== 0) evidence.push({ value: modify(value, index), unit: index, fromChange: true });
        break;
      }
      default:
        break;
    }
  }

  if (isSteady) return evidence;
  const hasChange = evidence.some((item) => item.fromChange);
  for (let index = start; index < end; index += 1) {
    const unit = units[index];
    if (unit.entry?.type !== 'comparator' || unit.inParentheses) continue;
    const comparison = compareAmounts(units, start, end, index);
    if (comparison === undefined) continue;
    if (comparison.isTransition) {
      return [
        ...evidence.filter((item) => !item.fromChange),
        { value: comparison.value, unit: index, fromChange: false },
      ];
    }
    if (!hasChange) evidence.push({ value: comparison.value, unit: index, fromChange: false });
  }
  return evidence;
}

/** Per-unit weights from contrast ("but", "however") and concession ("although", "despite"). */
function discourseWeights(units: Unit[], start: number, end: number, weights: Float64Array): void {
  for (let index = start; index < end; index += 1) {
    const type = units[index].entry?.type;
    if (type === 'contrast') {
      for (let before = start; before < index; before += 1) weights[before] *= BEFORE_CONTRAST_WEIGHT;
    } else if (type === 'concession') {
      const opensSentence = index - start <= 1;
      let stop = end;
      if (opensSentence) {
        stop = index + 1;
        while (stop < end && units[stop].kind !== 'comma') stop += 1;
      }
      for (let inside = index; inside < stop; inside += 1) weights[inside] *= CONCESSION_WEIGHT;
    }
  }
}

/**
 * The unbounded evidence total of a text: positive means good news. Sentences are scored on
 * their own; within a sentence, clauses ("…, while …") keep their quantities apart.
 */
export function sentimentEvidence(text: string): number {
  const { units, values } = toUnits(tokenize(text));
  markAmounts(units, values);
  const weights = new Float64Array(units.length).fill(1);
  let total = 0;
  let sentenceStart = 0;
  for (let index = 0; index <= units.length; index += 1) {
    if (index < units.length && units[index].kind !== 'sentence-end') continue;
    discourseWeights(units, sentenceStart, index, weights);
    let clauseStart = sentenceStart;
    for (let cursor = sentenceStart; cursor <= index; cursor += 1) {
      if (cursor < index && units[cursor].entry?.type !== 'clause-break') continue;
      for (const item of clauseEvidence(units, clauseStart, cursor)) total += item.value * weights[item.unit];
      clauseStart = cursor + 1;
    }
    sentenceStart = index + 1;
  }
  return total;
}

/** Maps evidence onto [-1, 1]: one clear piece of evidence lands well inside "positive"/"negative". */
export function squash(evidence: number): number {
  return Math.tanh(evidence);
}

/** Score of one text in [-1, 1]. */
export function sentimentScore(text: string): number {
  return squash(sentimentEvidence(text));
}

/** Score of a news item in [-1, 1]: the title's evidence plus the description's at a lower weight. */
export function articleSentimentScore(title: string, description: string | null | undefined): number {
  const descriptionEvidence = description ? sentimentEvidence(description) : 0;
  return squash(sentimentEvidence(title) + DESCRIPTION_WEIGHT * descriptionEvidence);
}
