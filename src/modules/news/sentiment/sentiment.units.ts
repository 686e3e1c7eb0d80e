import { LEXICON_BY_FIRST_WORD, LexiconEntry } from './financial.lexicon';
import { Token, TokenKind, tokenize } from './sentiment.tokenizer';

/**
 * The scorer's view of a text: lexicon phrases (longest match first), numbers read as amounts,
 * punctuation, and helpers that find the quantity a word is about.
 */

export interface Amount {
  value: number;
  isPercent: boolean;
}

export interface Unit {
  kind: TokenKind;
  /** The phrase or token as written (lower case). */
  text: string;
  entry: LexiconEntry | undefined;
  /** Set on numbers that are amounts (with a currency, magnitude or percent sign, or a decimal). */
  amount: Amount | undefined;
  inParentheses: boolean;
}

export type MetricEntry = Extract<LexiconEntry, { type: 'metric' }>;

/** Words that end the object of a verb: "increased as sales fell" is not "increased sales". */
const OBJECT_BOUNDARIES = new Set('as and or because since when after on with but if'.split(' '));

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
function toUnits(tokens: Token[]): Unit[] {
  const units: Unit[] = [];
  let depth = 0;
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index];
    if (token.kind === 'open') depth += 1;
    const matched = token.kind === 'word' ? matchPhrase(tokens, index) : undefined;
    const length = matched?.length ?? 1;
    const text =
      length === 1
        ? token.text
        : tokens
            .slice(index, index + length)
            .map((word) => word.text)
            .join(' ');
    const amount = token.kind === 'number' ? { value: token.value, isPercent: false } : undefined;
    units.push({ kind: token.kind, text, entry: matched?.entry, amount, inParentheses: depth > 0 });
    if (token.kind === 'close' && depth > 0) depth -= 1;
    index += length;
  }
  return units;
}

export function typeOf(unit: Unit | undefined): LexiconEntry['type'] | undefined {
  return unit?.entry?.type;
}

/**
 * Keeps the numbers that are amounts — with a currency, a magnitude or a percent sign, or a bare
 * decimal — and scales and signs them. Bare integers (years, counts, days) are dropped.
 */
function markAmounts(units: Unit[]): void {
  for (let index = 0; index < units.length; index += 1) {
    const unit = units[index];
    if (unit.amount === undefined) continue;
    const raw = unit.amount.value;
    let value = raw;
    let hasUnit = false;
    let isPercent = false;
    let next = index + 1;
    const magnitude = units[next]?.entry;
    if (magnitude?.type === 'magnitude') {
      value *= magnitude.factor;
      hasUnit = true;
      next += 1;
    }
    const after = typeOf(units[next]);
    if (after === 'percent') isPercent = hasUnit = true;
    if (after === 'currency') hasUnit = true;
    let before = index - 1;
    if (typeOf(units[before]) === 'currency') {
      hasUnit = true;
      before -= 1;
    }
    if (typeOf(units[before]) === 'negative') value = -value;
    const isAmount = (hasUnit || !Number.isInteger(raw)) && Number.isFinite(value);
    unit.amount = isAmount ? { value, isPercent } : undefined;
  }
}

export function isStop(unit: Unit): boolean {
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
    type === 'clause-break' ||
    type === 'than'
  );
}

/** The quantity a following phrase names: the head of a compound ("sales growth forecast" → forecast). */
export function metricAhead(
  units: Unit[],
  from: number,
  end: number,
  reach: number,
  direct = false,
): MetricEntry | undefined {
  for (let index = from + 1; index < end && index <= from + reach; index += 1) {
    const unit = units[index];
    if (direct && OBJECT_BOUNDARIES.has(unit.text)) return undefined;
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

export function isAmountSyntax(unit: Unit): boolean {
  const type = unit.entry?.type;
  return (
    unit.kind === 'number' ||
    unit.kind === 'open' ||
    unit.kind === 'close' ||
    type === 'currency' ||
    type === 'magnitude' ||
    type === 'percent'
  );
}

export function lastMetricBefore(units: Unit[], start: number, at: number): MetricEntry | undefined {
  for (let index = at - 1; index >= start; index -= 1) {
    const entry = units[index].entry;
    if (entry?.type === 'metric') return entry;
  }
  return undefined;
}

/** Reads a text into units with its amounts marked. */
export function readUnits(text: string): Unit[] {
  const units = toUnits(tokenize(text));
  markAmounts(units);
  return units;
}
