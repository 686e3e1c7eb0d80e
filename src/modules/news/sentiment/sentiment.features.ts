import { explainSentiment } from './sentiment.scorer';

/**
 * Features of the learned sentiment model, hashed into a fixed number of buckets (FNV-1a, a seed
 * per feature group so that a word and a character n-gram spelled alike do not share a bucket).
 *
 * Groups: word unigrams and bigrams over a normalised token stream (cashtags, signed numbers and
 * percentages become placeholder tokens), words inside a negation scope, character 3–5-grams
 * inside words, and the finance rule engine's evidence (its squashed total, both signs apart, and
 * each piece of evidence by phrase and sign).
 */

export const FEATURE_BITS = 18;
const FEATURE_MASK = (1 << FEATURE_BITS) - 1;

export interface FeatureScales {
  /**
   * Weight of every word unigram, bigram and negated word, divided by the square root of the token
   * count so that a long sentence does not pile up more evidence than a headline.
   */
  word: number;
  /** Total L2 norm of the character n-grams of a text. */
  char: number;
  /** Weight of the rule engine's features. */
  rule: number;
}

/**
 * The finance rules' score as it enters the model's fixed term: their squashed score in [-1, 1],
 * times √(tokens / RULE_REFERENCE_TOKENS) for a text longer than a headline. The learned word
 * evidence of a text grows like the square root of its length (each n-gram counts 1/√tokens), so
 * without this a long sentence's n-grams, fitted on headlines, would outvote the rules.
 */
export const RULE_REFERENCE_TOKENS = 16;

export interface ExtractedText {
  /** The finance rules' squashed score in [-1, 1]. */
  rules: number;
  /** The rules' score scaled up for a text longer than a headline, for the model's fixed rule term. */
  ruleTerm: number;
}

/** Receives every feature: its bucket, its value, and with `named` extraction its readable name. */
export type FeatureSink = (bucket: number, value: number, name: string | undefined) => void;

const enum Seed {
  Word = 0x811c9dc5,
  Bigram = 0x01000193,
  Negated = 0x2545f491,
  Char = 0x9e3779b9,
  Rule = 0x7f4a7c15,
  RuleEvidence = 0x27d4eb2f,
}

function hashString(seed: number, text: string): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash & FEATURE_MASK;
}

/** Words that open a negation scope of the next few words ("fails to meet", "no impact"). */
const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'without',
  'fails',
  'failed',
  'avoid',
  'avoids',
  'avoided',
  'dismisses',
  'dismissed',
  'less',
  'fewer',
  'slower',
  'narrower',
  'smaller',
  'ease',
  'eases',
  'eased',
]);
const NEGATION_REACH = 3;
const SCOPE_BREAKS = new Set([',', '.', ';', ':', '!', '?', 'but', 'while', 'as', '-']);

/**
 * "$AAPL" → `<tic>`, "-11%" → `<pct->`, "+3.5%" → `<pct+>`, "5%" → `<pct>`, "2019" → `<year>`,
 * other numbers → `<num>`; words lower-case with their apostrophes.
 */
const TOKEN_PATTERN = /\$[a-z][a-z0-9.]{0,9}|[+\-−]?\d+(?:[.,]\d+)*\s?%?|[a-z][a-z'’&]*|[!?,.;:$€£-]/g;

export function normalisedTokens(text: string): string[] {
  const lower = text.toLowerCase().replace(/https?:\/\/\S+/g, ' ');
  const tokens: string[] = [];
  for (const match of lower.matchAll(TOKEN_PATTERN)) {
    const raw = match[0];
    const first = raw.charCodeAt(0);
    if (first === 36 && raw.length > 1) {
      tokens.push('<tic>');
    } else if (/\d/.test(raw[0]) || (raw.length > 1 && /\d/.test(raw[1]))) {
      const trimmed = raw.trimEnd();
      if (trimmed.endsWith('%')) {
        tokens.push(first === 43 ? '<pct+>' : first === 45 || first === 0x2212 ? '<pct->' : '<pct>');
      } else if (/^(19|20)\d\d$/.test(trimmed)) {
        tokens.push('<year>');
      } else {
        tokens.push(first === 45 || first === 0x2212 ? '<num->' : '<num>');
      }
    } else {
      tokens.push(raw.replace(/’/g, "'"));
    }
  }
  return tokens;
}

function isWordToken(token: string): boolean {
  const code = token.charCodeAt(0);
  return code >= 97 && code <= 122;
}

const CHAR_MIN = 3;
const CHAR_MAX = 5;

/**
 * Calls `sink` with every feature of `text` (names are built only when `named` is set, for
 * explanations) and returns the finance rules' score of the text and its length-scaled fixed term.
 */
export function extractFeatures(
  text: string,
  scales: FeatureScales,
  sink: FeatureSink,
  named = false,
): ExtractedText {
  const tokens = normalisedTokens(text);
  const wordValue = scales.word / Math.sqrt(Math.max(1, tokens.length));
  let previous = '<s>';
  let negatedLeft = 0;
  for (const token of tokens) {
    sink(hashString(Seed.Word, token), wordValue, named ? token : undefined);
    const bigram = `${previous} ${token}`;
    sink(hashString(Seed.Bigram, bigram), wordValue, named ? bigram : undefined);
    previous = token;
    if (SCOPE_BREAKS.has(token)) {
      negatedLeft = 0;
    } else if (negatedLeft > 0) {
      sink(hashString(Seed.Negated, token), wordValue, named ? `NOT ${token}` : undefined);
      negatedLeft -= 1;
    }
    if (NEGATORS.has(token) || token.endsWith("n't")) negatedLeft = NEGATION_REACH;
  }

  let charCount = 0;
  for (const token of tokens) {
    if (isWordToken(token)) {
      const length = token.length + 2;
      for (let start = 0; start + CHAR_MIN <= length; start += 1) {
        charCount += Math.min(CHAR_MAX, length - start) - CHAR_MIN + 1;
      }
    }
  }
  if (charCount > 0) {
    const charValue = scales.char / Math.sqrt(charCount);
    for (const token of tokens) {
      if (!isWordToken(token)) continue;
      const padded = ` ${token} `;
      for (let start = 0; start + CHAR_MIN <= padded.length; start += 1) {
        let hash = Seed.Char >>> 0;
        for (let end = start; end < padded.length && end < start + CHAR_MAX; end += 1) {
          hash ^= padded.charCodeAt(end);
          hash = Math.imul(hash, 0x01000193);
          if (end - start + 1 >= CHAR_MIN)
            sink(hash & FEATURE_MASK, charValue, named ? `"${padded.slice(start, end + 1)}"` : undefined);
        }
      }
    }
  }

  const items = explainSentiment(text);
  let evidence = 0;
  for (const item of items) evidence += item.value;
  const squashed = Math.tanh(evidence);
  sink(hashString(Seed.Rule, 'total'), scales.rule * squashed, named ? 'rules score' : undefined);
  if (squashed > 0)
    sink(
      hashString(Seed.Rule, 'positive'),
      scales.rule * squashed,
      named ? 'rules score, positive part' : undefined,
    );
  if (squashed < 0)
    sink(
      hashString(Seed.Rule, 'negative'),
      -scales.rule * squashed,
      named ? 'rules score, negative part' : undefined,
    );
  for (const item of items) {
    if (item.value === 0) continue;
    const key = `${item.phrase}${item.value > 0 ? '+' : '-'}`;
    sink(hashString(Seed.RuleEvidence, key), scales.rule, named ? `rule evidence: ${key}` : undefined);
  }
  return {
    rules: squashed,
    ruleTerm: squashed * Math.sqrt(Math.max(RULE_REFERENCE_TOKENS, tokens.length) / RULE_REFERENCE_TOKENS),
  };
}
