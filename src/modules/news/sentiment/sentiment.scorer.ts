import { LexiconEntry, MetricKind } from './financial.lexicon';
import { PROFIT_LOSS_TRANSITION_WEIGHT, compareAmounts } from './amount-comparison';
import { MetricEntry, Unit, isAmountSyntax, isStop, metricAhead, readUnits, typeOf } from './sentiment.units';

/** A change of a known quantity ("profit fell") is the strongest ordinary evidence. */
const QUANTIFIED_CHANGE_WEIGHT = 1;
/** The bottom line outweighs the rest: "profit fell while sales rose" is bad news. */
const NON_PROFIT_QUANTITY_WEIGHT = 0.8;
/** A measured change of an unknown quantity ("the index fell 3 %"): weaker, still directional. */
const UNQUANTIFIED_CHANGE_WEIGHT = 0.5;
/** A loss reported with its amount and no comparison ("posted a net loss of EUR 2 mn"). */
const LOSS_REPORT_WEIGHT = -0.6;
/** "negative impact", "a negative EUR 3 mn". */
const NEGATIVE_WORD_WEIGHT = -0.45;
/** An order, contract or deal called major, large or significant. */
const NOTABLE_DEAL_WEIGHT = 0.9;
/** What the part of a sentence before "but"/"however" still counts for. */
const BEFORE_CONTRAST_WEIGHT = 0.5;
/** What a concession ("although …", "despite …") or a cause ("due to …") counts for against the main clause. */
const CONCESSION_WEIGHT = 0.5;
/** The description adds to the title's evidence, at a lower weight. */
const DESCRIPTION_WEIGHT = 0.6;
/** How far (in units) modifiers, negators and look-aheads reach. */
const NEGATION_REACH = 3;
const SCALER_REACH = 2;
const LOOK_AHEAD_REACH = 4;
const QUALIFIER_REACH = 3;
const OLD_STATE_REACH = 3;
const AMOUNT_REACH = 3;
const LOSS_AMOUNT_REACH = 5;
/** "value of the company's properties": within this reach after "of", the first quantity stays the head. */
const OF_PHRASE_REACH = 6;

/** Words after "up"/"down"/"higher"/… that show it is said of the quantity before ("up by 5 %"). */
const PREDICATIVE_FOLLOWERS = new Set(
  'by on in year y quarter again for at the last previous that those'.split(' '),
);
export interface EvidenceItem {
  /** The phrase the evidence hangs on. */
  phrase: string;
  /** Signed strength after negation, scaling and discourse weights. */
  value: number;
}

interface Evidence {
  value: number;
  unit: number;
  fromChange: boolean;
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

/**
 * "upgraded to hold from underperform", "compared to a negative EUR 3 mn": words right after a
 * comparator describe the past. A plain "from" only does so after a change ("result from weak
 * demand" is about now).
 */
function describesOldState(units: Unit[], at: number, start: number): boolean {
  for (let index = at - 1; index >= Math.max(start, at - OLD_STATE_REACH); index -= 1) {
    const unit = units[index];
    if (unit.entry?.type !== 'comparator') continue;
    if (unit.text !== 'from') return true;
    for (let before = index - 1; before >= Math.max(start, index - 4); before -= 1) {
      const type = units[before].entry?.type;
      if (type === 'into' || type === 'change' || type === 'shift' || type === 'polar') return true;
    }
    return false;
  }
  return false;
}

/** "fell to a net loss", "swung into a EUR 2 mn profit": the kind of result the change ends in. */
function transitionTarget(units: Unit[], from: number, end: number): MetricKind | undefined {
  let index = from + 1;
  while (index < end && units[index].entry?.type === 'scaler') index += 1;
  if (index >= end || units[index].entry?.type !== 'into') return undefined;
  let plainWords = 0;
  for (let next = index + 1; next < end; next += 1) {
    const unit = units[next];
    const entry = unit.entry;
    if (entry?.type === 'metric') return entry.kind === 'other' ? undefined : entry.kind;
    if (isAmountSyntax(unit) || entry?.type === 'scaler') continue;
    const isDescriptive = entry === undefined || entry.type === 'polar' || entry.type === 'change';
    if (!isDescriptive || unit.kind !== 'word' || plainWords === 2) return undefined;
    plainWords += 1;
  }
  return undefined;
}

/** "sales were up by 5 %", "weaker than a year ago" — as against "set up a unit", "more than 100". */
function isPredicative(units: Unit[], at: number, end: number): boolean {
  if (at + 1 >= end) return true;
  const next = units[at + 1];
  if (next.entry?.type === 'than') {
    const compared = units[at + 2];
    return compared === undefined || (compared.kind !== 'number' && compared.entry?.type !== 'currency');
  }
  if (next.kind !== 'word') return next.kind !== 'open';
  return next.entry !== undefined || PREDICATIVE_FOLLOWERS.has(next.text);
}

/** "more than EUR 900 mn", "less than 5 %": a bound on an amount, not a change. */
function quantifiesAmount(units: Unit[], at: number, end: number): boolean {
  if (at + 2 >= end || units[at + 1].entry?.type !== 'than') return false;
  const bound = units[at + 2];
  return bound.kind === 'number' || bound.entry?.type === 'currency';
}

/** "the fair value of the company's properties": the later quantity names what the first one measures. */
function isOfComplement(units: Unit[], headAt: number, at: number): boolean {
  if (headAt < 0 || at - headAt > OF_PHRASE_REACH) return false;
  let sawOf = false;
  for (let index = headAt + 1; index < at; index += 1) {
    const unit = units[index];
    if (unit.kind !== 'word' || (unit.entry !== undefined && unit.entry.type !== 'inert')) return false;
    if (unit.text === 'of') sawOf = true;
  }
  return sawOf;
}

/** "decreased by 28 %", "a 5 % increase", "a sharp fall": a change with a size. */
function isMeasured(units: Unit[], at: number, start: number, end: number): boolean {
  if (scalerFactor(units, at, start, end) > 1) return true;
  for (let index = Math.max(start, at - 2); index < at; index += 1) {
    if (units[index].amount !== undefined) return true;
  }
  return amountFollows(units, at, end);
}

function amountFollows(units: Unit[], at: number, end: number): boolean {
  for (let index = at + 1; index < end && index <= at + AMOUNT_REACH; index += 1) {
    const unit = units[index];
    if (unit.amount !== undefined) return true;
    if (unit.kind === 'comma' || unit.kind === 'sentence-end') return false;
  }
  return false;
}

function lossAmountFollows(units: Unit[], at: number, end: number): boolean {
  for (let index = at + 1; index < end && index <= at + LOSS_AMOUNT_REACH; index += 1) {
    const unit = units[index];
    if (unit.amount !== undefined && !unit.inParentheses) return true;
    if (isStop(unit)) return false;
  }
  return false;
}

type ChangeEntry = Extract<LexiconEntry, { type: 'change' }>;

/** The quantity a change word moves, found by how the word takes its quantity (see `ChangeRole`). */
function changedQuantity(
  units: Unit[],
  at: number,
  role: ChangeEntry['role'],
  currentMetric: MetricEntry | undefined,
  end: number,
): MetricEntry | undefined {
  switch (role) {
    case 'subject':
      return currentMetric?.polarity
        ? currentMetric
        : (metricAhead(units, at, end, LOOK_AHEAD_REACH) ?? currentMetric);
    case 'either':
      return (
        metricAhead(units, at, end, LOOK_AHEAD_REACH - 1, true) ??
        currentMetric ??
        metricAhead(units, at, end, LOOK_AHEAD_REACH)
      );
    case 'object': {
      const isPassive = isPredicative(units, at, end) && typeOf(units[at + 1]) !== 'change';
      return metricAhead(units, at, end, LOOK_AHEAD_REACH) ?? (isPassive ? currentMetric : undefined);
    }
    case 'modifier':
      return metricAhead(units, at, end, 2) ?? (isPredicative(units, at, end) ? currentMetric : undefined);
  }
}

/** Evidence from one clause: a stretch of a sentence that talks about one thing. */
function clauseEvidence(units: Unit[], start: number, end: number): Evidence[] {
  const evidence: Evidence[] = [];
  let currentMetric: MetricEntry | undefined;
  let qualifiedUntil = -1;
  let isSteady = false;
  let currentMetricAt = -1;
  let reportsLoss = false;
  let reportsProfit = false;
  const modify = (value: number, at: number): number =>
    value * scalerFactor(units, at, start, end) * (isNegated(units, at, start) ? -1 : 1);

  for (let index = start; index < end; index += 1) {
    const entry = units[index].entry;
    if (entry === undefined) continue;
    switch (entry.type) {
      case 'metric':
        if (index <= qualifiedUntil || isOfComplement(units, currentMetricAt, index)) break;
        currentMetric = entry;
        currentMetricAt = index;
        if (
          entry.kind !== 'other' &&
          lossAmountFollows(units, index, end) &&
          !isNegated(units, index, start)
        ) {
          if (entry.kind === 'loss') reportsLoss = true;
          else reportsProfit = true;
        }
        break;
      case 'qualifier':
        qualifiedUntil = index + QUALIFIER_REACH;
        break;
      case 'steady':
        isSteady = true;
        break;
      case 'polar':
        if (!describesOldState(units, index, start)) {
          evidence.push({ value: modify(entry.weight, index), unit: index, fromChange: false });
        }
        break;
      case 'negative':
        if (!describesOldState(units, index, start)) {
          evidence.push({ value: NEGATIVE_WORD_WEIGHT, unit: index, fromChange: false });
        }
        break;
      case 'deal':
        if (scalerFactor(units, index, start, index + 1) > 1) {
          evidence.push({ value: NOTABLE_DEAL_WEIGHT, unit: index, fromChange: false });
        }
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
        if (entry.role === 'modifier' && quantifiesAmount(units, index, end)) break;
        const quantity = changedQuantity(units, index, entry.role, currentMetric, end);
        let value = 0;
        if (quantity !== undefined) {
          const weight = quantity.kind === 'other' ? NON_PROFIT_QUANTITY_WEIGHT : QUANTIFIED_CHANGE_WEIGHT;
          value = entry.direction * quantity.polarity * weight;
        } else if (isMeasured(units, index, start, end)) {
          value = entry.direction * UNQUANTIFIED_CHANGE_WEIGHT;
        }
        if (value !== 0) evidence.push({ value: modify(value, index), unit: index, fromChange: true });
        break;
      }
      default:
        break;
    }
  }

  if (isSteady) return evidence;
  let compared = false;
  const hasChange = evidence.some((item) => item.fromChange);
  for (let index = start; index < end; index += 1) {
    const unit = units[index];
    if (unit.entry?.type !== 'comparator' || unit.inParentheses) continue;
    const comparison = compareAmounts(units, start, end, index);
    if (comparison === undefined) continue;
    compared = true;
    if (comparison.isTransition) {
      return [
        ...evidence.filter((item) => !item.fromChange),
        { value: comparison.value, unit: index, fromChange: false },
      ];
    }
    if (!hasChange) evidence.push({ value: comparison.value, unit: index, fromChange: false });
  }
  if (reportsLoss && !reportsProfit && !compared && !hasChange)
    evidence.push({ value: LOSS_REPORT_WEIGHT, unit: start, fromChange: false });
  return evidence;
}

/**
 * Per-unit weights from contrast ("but", "however") and concession ("although", "despite");
 * allocated only for the rare sentence that has either.
 */
function discourseWeights(
  units: Unit[],
  start: number,
  end: number,
  weights: number[] | undefined,
): number[] | undefined {
  for (let index = start; index < end; index += 1) {
    const type = units[index].entry?.type;
    if (type !== 'contrast' && type !== 'concession' && type !== 'cause') continue;
    weights ??= new Array<number>(units.length).fill(1);
    if (type === 'contrast') {
      for (let before = start; before < index; before += 1) weights[before] *= BEFORE_CONTRAST_WEIGHT;
    } else {
      const opensSentence = index - start <= 1;
      let stop = end;
      if (opensSentence) {
        stop = index + 1;
        while (stop < end && units[stop].kind !== 'comma') stop += 1;
      }
      for (let inside = index; inside < stop; inside += 1) weights[inside] *= CONCESSION_WEIGHT;
    }
  }
  return weights;
}

function collectEvidence(
  text: string,
  collect: (units: Unit[], item: Evidence, weight: number) => void,
): void {
  const units = readUnits(text);
  let weights: number[] | undefined;
  let sentenceStart = 0;
  for (let index = 0; index <= units.length; index += 1) {
    if (index < units.length && units[index].kind !== 'sentence-end') continue;
    weights = discourseWeights(units, sentenceStart, index, weights);
    let clauseStart = sentenceStart;
    for (let cursor = sentenceStart; cursor <= index; cursor += 1) {
      if (cursor < index && units[cursor].entry?.type !== 'clause-break') continue;
      for (const item of clauseEvidence(units, clauseStart, cursor))
        collect(units, item, weights?.[item.unit] ?? 1);
      clauseStart = cursor + 1;
    }
    sentenceStart = index + 1;
  }
}

/**
 * The unbounded evidence total of a text: positive means good news. Sentences are scored on
 * their own; within a sentence, clauses ("…, while …") keep their quantities apart.
 */
export function sentimentEvidence(text: string): number {
  let total = 0;
  collectEvidence(text, (_units, item, weight) => {
    total += item.value * weight;
  });
  return total;
}

/** The pieces of evidence behind a score, for debugging rules and explaining a label. */
export function explainSentiment(text: string): EvidenceItem[] {
  const items: EvidenceItem[] = [];
  collectEvidence(text, (units, item, weight) => {
    items.push({ phrase: units[item.unit].text, value: item.value * weight });
  });
  return items;
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
