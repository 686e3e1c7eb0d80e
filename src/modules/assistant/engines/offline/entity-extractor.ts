import { closest, editDistance } from './fuzzy';
import { EnglishWords } from './english-words';
import { CountedLru } from '../../../../common/metrics/cache-counters';

/** What the offline engine pulls out of a question. */
export interface ExtractedEntities {
  /** Known tickers, in the order they appear, each once. */
  symbols: string[];
  /** A company name or ticker the user asked about that the symbol data does not know. */
  unknownNames: string[];
  period: Period | null;
  numbers: number[];
}

export const PERIODS = ['1D', '1W', '1M', '3M', '6M', 'YTD', '1Y', 'ALL'] as const;
export type Period = (typeof PERIODS)[number];

export interface DirectoryEntry {
  symbol: string;
  name: string;
}

/** Tickers that are also words users write in capitals (or that clash with a term: VaR). */
const UPPERCASE_NOT_TICKERS = new Set([
  'IT',
  'ALL',
  'ARE',
  'SO',
  'ON',
  'OR',
  'KEY',
  'LOW',
  'SEE',
  'HAS',
  'DE',
  'IR',
  'RE',
  'ES',
  'IP',
  'VAR',
  'ETF',
  'USD',
  'YTD',
  'CEO',
  'AI',
  'EPS',
  'PE',
  'ESG',
  'HI',
  'OK',
  'TV',
]);

/** Tickers written in lower case count only when they are not also ordinary English words. */
const COMMON_WORDS = new Set([
  'all',
  'are',
  'see',
  'has',
  'low',
  'key',
  'cat',
  'cost',
  'fast',
  'dish',
  'hog',
  'amp',
  'ben',
  'fox',
  'gps',
  'ice',
  'info',
  'leg',
  'len',
  'luv',
  'mac',
  'mar',
  'mas',
  'mat',
  'met',
  'mon',
  'nov',
  'sig',
  'tap',
  'tel',
  'trip',
  'ups',
  'uri',
  'var',
  'wat',
  'yum',
  'ads',
  'col',
  'coo',
  'now',
  'pay',
  'well',
  'man',
  'can',
  'dov',
  'its',
  'and',
  'the',
  'for',
  'how',
  'what',
  'who',
  'why',
  'was',
  'did',
  'does',
  'day',
  'has',
  'had',
  'not',
  'new',
  'old',
  'one',
  'two',
  'top',
  'big',
  'any',
  'out',
  'per',
  'max',
  'min',
  'avg',
  'sum',
  'low',
  'high',
  'cme',
  'are',
  'aes',
  'gis',
  'hes',
  'jec',
  'kim',
  'mos',
  'nee',
  'pru',
  'rl',
  'stt',
  'syk',
  'tss',
  'wm',
  'amg',
  'aon',
  'rok',
  'rop',
  'rsg',
  'sna',
  'snps',
  'tgt',
  'tjx',
  'hrb',
  'hst',
  'pgr',
  'pkg',
  'tsn',
  'ccl',
  'dri',
  'exc',
  'fe',
  'key',
  'chd',
  'bll',
  'hum',
  'info',
  'ame',
  'eqt',
  'iqv',
  'mtb',
  'nws',
  'pvh',
  'xec',
  'coty',
]);

/** Words to drop from company names so that "Apple Inc." is found as "apple". */
const NAME_NOISE = new Set([
  'inc',
  'corp',
  'corporation',
  'co',
  'company',
  'the',
  'plc',
  'ltd',
  'group',
  'holdings',
  'holding',
  'class',
  'incorporated',
  'companies',
  'n.v.',
  'nv',
  'sa',
  'lp',
  'llc',
  'a',
  'b',
  'c',
  'de',
]);

/** First words of company names too generic to stand for one company on their own. */
const GENERIC_FIRST_WORDS = new Set([
  'american',
  'general',
  'first',
  'united',
  'international',
  'national',
  'southern',
  'eastern',
  'western',
  'public',
  'capital',
  'texas',
  'universal',
  'discovery',
  'advanced',
  'applied',
  'central',
  'digital',
  'global',
  'federal',
  'principal',
  'regions',
  'royal',
  'state',
  'consolidated',
  'quest',
  'robert',
  'mid',
  'news',
  'edison',
  'health',
  'market',
  'best',
  'ball',
  'block',
  'host',
  'total',
  'alliance',
  'analog',
  'archer',
  'arthur',
  'bank',
  'booking',
  'check',
  'church',
  'darden',
  'dollar',
  'dr',
  'duke',
  'electronic',
  'equity',
  'essex',
  'extra',
  'fidelity',
  'fortune',
  'hartford',
  'hilton',
  'home',
  'hormel',
  'intercontinental',
  'iron',
  'jacobs',
  'kansas',
  'lincoln',
  'marathon',
  'martin',
  'motorola',
  'norwegian',
  'old',
  'pioneer',
  'public',
  'republic',
  'ross',
  'sealed',
  'simon',
  'snap',
  'tapestry',
  'tractor',
  'under',
  'union',
  'vertex',
  'waste',
  'western',
  'wynn',
  'xcel',
  'zions',
  'morgan',
  'johnson',
  'price',
  'target',
  'ford',
  'visa',
  'apache',
  'gap',
  'key',
  'mastercard',
  'realty',
  'allergan',
]);

/** Everyday names of companies whose listed names differ. */
const ALIASES: Record<string, string> = {
  google: 'GOOGL',
  alphabet: 'GOOGL',
  facebook: 'FB',
  meta: 'FB',
  coke: 'KO',
  'coca cola': 'KO',
  'coca-cola': 'KO',
  walmart: 'WMT',
  'wal mart': 'WMT',
  disney: 'DIS',
  jpmorgan: 'JPM',
  'jp morgan': 'JPM',
  chase: 'JPM',
  berkshire: 'BRK.B',
  exxon: 'XOM',
  'j&j': 'JNJ',
  'johnson johnson': 'JNJ',
  'johnson and johnson': 'JNJ',
  mcdonalds: 'MCD',
  "mcdonald's": 'MCD',
  'at&t': 'T',
  att: 'T',
  citi: 'C',
  citigroup: 'C',
  'bank of america': 'BAC',
  'wells fargo': 'WFC',
  'goldman sachs': 'GS',
  goldman: 'GS',
  'morgan stanley': 'MS',
  'home depot': 'HD',
  'general electric': 'GE',
  'general motors': 'GM',
  ford: 'F',
  visa: 'V',
  mastercard: 'MA',
  'procter gamble': 'PG',
  'procter and gamble': 'PG',
  procter: 'PG',
  pepsi: 'PEP',
  pepsico: 'PEP',
  'eli lilly': 'LLY',
  lilly: 'LLY',
  unitedhealth: 'UNH',
  amazon: 'AMZN',
  'target corp': 'TGT',
  'price line': 'PCLN',
  priceline: 'PCLN',
  'american express': 'AXP',
  amex: 'AXP',
  'american airlines': 'AAL',
  'texas instruments': 'TXN',
  intel: 'INTC',
  nvidia: 'NVDA',
};

const TOKEN = /\$?[A-Za-z][A-Za-z.&'-]*/g;

/**
 * First words of company names that are everyday words ("sorry in advance" is not Advance Auto
 * Parts): they name the company only written with a capital inside a sentence.
 */
const EVERYDAY_FIRST_WORDS = new Set([
  'advance',
  'automatic',
  'apartment',
  'align',
  'affiliated',
  'acuity',
  'baker',
  'cardinal',
  'crown',
  'cadence',
  'citizens',
  'charter',
  'dominion',
  'delta',
  'discover',
  'dish',
  'express',
  'envision',
  'genuine',
  'henry',
  'intuitive',
  'kinder',
  'laboratory',
  'southwest',
  'monster',
  'noble',
  'northern',
  'packaging',
  'pinnacle',
  'range',
  'regency',
  'signet',
  'constellation',
  'time',
  'williams',
  'franklin',
  'michael',
  'micron',
  'mohawk',
  'marsh',
  'polo',
  'roper',
  'vulcan',
  'wells',
]);

/** Whole company names that are everyday words: again only with a capital ("off target" is not TGT). */
const EVERYDAY_NAMES = new Set([
  'ball',
  'carnival',
  'cooper',
  'discovery',
  'dover',
  'gap',
  'mosaic',
  'news',
  'progressive',
  'southern',
  'target',
  'tapestry',
  'travelers',
  'waters',
  'whirlpool',
  'anthem',
  'corning',
  'apache',
]);

/**
 * The engine's own words, so that "protfolio" or "dividents" read as what they mean. Misspelt
 * words are corrected to the nearest of these within one edit (two for long words).
 */
const VOCABULARY = [
  'portfolio',
  'dividend',
  'dividends',
  'balance',
  'worth',
  'value',
  'performance',
  'performing',
  'perform',
  'performed',
  'return',
  'returns',
  'risk',
  'risky',
  'volatility',
  'volatile',
  'sector',
  'sectors',
  'diversified',
  'diversification',
  'rebalance',
  'rebalancing',
  'holdings',
  'holding',
  'position',
  'positions',
  'shares',
  'realized',
  'unrealized',
  'income',
  'interest',
  'transactions',
  'transaction',
  'bought',
  'watchlist',
  'preferences',
  'settings',
  'price',
  'market',
  'invested',
  'investments',
  'investment',
  'concentration',
  'concentrated',
  'exposure',
  'allocation',
  'drawdown',
  'gains',
  'losses',
  'profit',
  'yesterday',
  'compare',
  'versus',
  'biggest',
  'largest',
  'explain',
  'earnings',
  'stocks',
  'quote',
  'sentiment',
  'headlines',
  'tolerance',
  'purchased',
  'doing',
  'today',
  'recent',
  'what',
  'how',
  'much',
  'many',
];

const englishWords = (): EnglishWords => {
  ENGLISH ??= EnglishWords.load();
  return ENGLISH;
};
let ENGLISH: EnglishWords | null = null;

/** Whether a lower-case word is English (or a form of one the list leaves out). */
export function isEnglishWord(word: string): boolean {
  const words = englishWords();
  return (
    words.has(word) ||
    (word.endsWith('s') && words.has(word.slice(0, -1))) ||
    (word.endsWith("'s") && words.has(word.slice(0, -2))) ||
    (word.endsWith('ed') && words.has(word.slice(0, -2)))
  );
}

/** Confident fuzzy matches need at most this many edits for a word of this length. */
const editsAllowed = (length: number) => (length >= 8 ? 2 : length >= 4 ? 1 : 0);

/**
 * Finds tickers, company names, a period and numbers in free text. Names resolve through the
 * market's symbol data (plus a few everyday aliases); nothing is guessed: a capitalised name that
 * matches nothing is reported as unknown.
 */
export class EntityExtractor {
  private readonly symbols: Set<string>;
  private readonly names = new Map<string, string>();
  /** First words and everyday names that count only when written with a capital inside a sentence. */
  private readonly capitalOnly = new Set<string>();
  private readonly longestName: number;
  private readonly companyOf = new Map<string, string>();
  private readonly fuzzyNames: string[];
  private readonly cache = new CountedLru<string, ExtractedEntities>('assistant-entities', { max: 5000 });

  constructor(directory: readonly DirectoryEntry[]) {
    this.symbols = new Set(directory.map((entry) => entry.symbol));
    for (const entry of directory) this.companyOf.set(entry.symbol, entry.name);
    const firstWords = new Map<string, string[]>();
    for (const entry of directory) {
      const words = nameWords(entry.name);
      if (words.length === 0) continue;
      if (!NOT_NAMES.has(words.join(' '))) this.names.set(words.join(' '), entry.symbol);
      const first = words[0];
      if (
        first.length >= 4 &&
        !GENERIC_FIRST_WORDS.has(first) &&
        !COMMON_WORDS.has(first) &&
        !NOT_NAMES.has(first)
      ) {
        firstWords.set(first, [...(firstWords.get(first) ?? []), entry.symbol]);
      }
    }
    for (const [word, symbols] of firstWords) {
      if (symbols.length === 1 && !this.names.has(word)) {
        this.names.set(word, symbols[0]);
        if (EVERYDAY_FIRST_WORDS.has(word)) this.capitalOnly.add(word);
      }
    }
    for (const name of EVERYDAY_NAMES) if (this.names.has(name)) this.capitalOnly.add(name);
    for (const [alias, symbol] of Object.entries(ALIASES)) {
      if (this.symbols.has(symbol)) this.names.set(alias, symbol);
    }
    this.longestName = Math.max(...[...this.names.keys()].map((name) => name.split(' ').length));
    this.fuzzyNames = [...this.names.keys()].filter(
      (name) => !name.includes(' ') && name.length >= 5 && !this.capitalOnly.has(name),
    );
  }

  /** The company name of a symbol, as the market data has it. */
  nameOf(symbol: string): string {
    return this.companyOf.get(symbol) ?? symbol;
  }

  /** The text with misspelt cue words corrected ("protfolio" → "portfolio"); names and tickers stay. */
  normalise(text: string): string {
    return text.replace(/[A-Za-z][A-Za-z']{3,}/g, (word) => {
      const lower = word.toLowerCase();
      if (isEnglishWord(lower) || this.names.has(lower) || this.symbols.has(word.toUpperCase())) return word;
      const match = closest(lower, VOCABULARY, editsAllowed(lower.length));
      return match ?? word;
    });
  }

  /**
   * Words that are one edit beyond a confident match of a company name: the engine asks "did you
   * mean …?" rather than guess. Confident corrections are reported too, so the answer can say how
   * it read the name.
   */
  didYouMean(text: string): { typed: string; symbol: string; name: string }[] {
    const found: { typed: string; symbol: string; name: string }[] = [];
    for (const match of text.matchAll(TOKEN)) {
      const raw = match[0]
        .replace(/[.'-]+$/, '')
        .replace(/'s$/i, '')
        .replace(/^\$/, '');
      const symbol = this.fuzzySymbol(raw);
      if (symbol) found.push({ typed: raw, symbol, name: this.nameOf(symbol) });
    }
    return found;
  }

  /**
   * Companies a name the engine could not place is close to, for "did you mean …?": names within
   * one edit more than a confident match allows, nearest first, at most three.
   */
  nearNames(typed: string): { symbol: string; name: string }[] {
    const lower = typed.toLowerCase();
    const limit = editsAllowed(lower.length) + 1;
    return this.fuzzyNames
      .map((name) => ({ name, distance: editDistance(lower, name, limit) }))
      .filter((candidate) => candidate.distance <= limit)
      .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
      .slice(0, 3)
      .map(({ name }) => {
        const symbol = this.names.get(name)!;
        return { symbol, name: this.nameOf(symbol) };
      });
  }

  /** A misspelt company name or ticker (not an English word) read as the one it is closest to. */
  private fuzzySymbol(raw: string): string | null {
    const lower = raw.toLowerCase();
    if (lower.length < 4 || this.names.has(lower) || this.symbols.has(raw.toUpperCase())) return null;
    if (isEnglishWord(lower) || NOT_NAMES.has(lower) || VOCABULARY.includes(lower)) return null;
    const name = closest(lower, this.fuzzyNames, editsAllowed(lower.length));
    if (name) return this.names.get(name)!;
    if (raw === raw.toUpperCase() && raw.length <= 5) {
      const near = [...this.symbols].filter(
        (symbol) => symbol.length === raw.length && editDistance(symbol, raw) === 1,
      );
      if (near.length === 1) return near[0];
    }
    return null;
  }

  extract(text: string): ExtractedEntities {
    const cached = this.cache.get(text);
    if (cached) return { ...cached, symbols: [...cached.symbols], unknownNames: [...cached.unknownNames] };
    const entities = this.extractAfresh(text);
    this.cache.set(text, entities);
    return { ...entities, symbols: [...entities.symbols], unknownNames: [...entities.unknownNames] };
  }

  private extractAfresh(text: string): ExtractedEntities {
    const found: { at: number; symbol: string }[] = [];
    const tokens = [...text.matchAll(TOKEN)].map((match) => ({
      raw: match[0].replace(/[.'-]+$/, '').replace(/'s$/i, ''),
      at: match.index,
    }));
    const claimed = new Set<number>();
    const words = tokens.map((token) => token.raw.toLowerCase().replace(/^\$/, ''));
    for (let size = this.longestName; size >= 1; size -= 1) {
      for (let start = 0; start + size <= tokens.length; start += 1) {
        const span = Array.from({ length: size }, (_, index) => start + index);
        if (span.some((index) => claimed.has(index))) continue;
        const key = span.map((index) => words[index]).join(' ');
        const symbol = this.names.get(key);
        if (!symbol) continue;
        if (this.capitalOnly.has(key) && !(start > 0 && /^[A-Z][a-z]/.test(tokens[start].raw))) continue;
        span.forEach((index) => claimed.add(index));
        found.push({ at: tokens[start].at, symbol });
      }
    }
    tokens.forEach((token, index) => {
      if (claimed.has(index)) return;
      const symbol = this.tickerIn(token.raw) ?? this.fuzzySymbol(token.raw.replace(/^\$/, ''));
      if (!symbol) return;
      claimed.add(index);
      found.push({ at: token.at, symbol });
    });
    const symbols = [...new Set(found.sort((a, b) => a.at - b.at).map((entry) => entry.symbol))];
    return {
      symbols,
      unknownNames: symbols.length === 0 ? unknownNames(text, tokens, claimed) : [],
      period: periodIn(text),
      numbers: numbersIn(text),
    };
  }

  private tickerIn(raw: string): string | null {
    const dollar = raw.startsWith('$');
    const bare = (dollar ? raw.slice(1) : raw).replace(/-([A-Za-z])$/, '.$1');
    const upper = bare.toUpperCase();
    if (!this.symbols.has(upper)) return null;
    if (dollar) return upper;
    if (bare === upper) return upper.length >= 2 && !UPPERCASE_NOT_TICKERS.has(upper) ? upper : null;
    return bare === bare.toLowerCase() &&
      bare.length >= 3 &&
      !COMMON_WORDS.has(bare) &&
      !UPPERCASE_NOT_TICKERS.has(upper)
      ? upper
      : null;
  }
}

function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/\(.*?\)/g, ' ')
    .replace(/,/g, ' ')
    .replace(/\.com\b/g, '')
    .split(/\s+/)
    .map((word) => word.replace(/\.$/, ''))
    .filter((word) => word && word !== '&' && !NAME_NOISE.has(word));
}

/** Words that start a sentence or a question in capitals without naming anything. */
const NOT_NAMES = new Set([
  'how',
  'what',
  'whats',
  "what's",
  'is',
  'are',
  'did',
  'does',
  'do',
  'should',
  'can',
  'could',
  'would',
  'tell',
  'show',
  'give',
  'compare',
  'i',
  'my',
  'me',
  'the',
  'a',
  'an',
  'any',
  'which',
  'who',
  'why',
  'when',
  'where',
  'please',
  'hey',
  'hi',
  'hello',
  'versus',
  'vs',
  'and',
  'or',
  'news',
  'price',
  'stock',
  'stocks',
  'shares',
  'today',
  'ok',
  'okay',
  'thanks',
  'latest',
  'current',
  'explain',
  'help',
  'quote',
  'ticker',
  'company',
  'inc',
  'ytd',
  'var',
  'etf',
  'usd',
  's&p',
  'nasdaq',
  'dow',
  'market',
  'portfolio',
  'get',
  'let',
  'us',
  'it',
  'its',
  'was',
  'has',
  'will',
  'am',
  'on',
  'about',
  'for',
  'of',
  'in',
  'with',
  'to',
  'doing',
  'trading',
  'wall',
  'street',
  'nasdaq',
  'dow',
  'jones',
  's&p',
  'index',
  'sector',
  'sectors',
]);

/** Capitalised words (or $TICKERS) the directory did not recognise: the name the user asked about. */
function unknownNames(text: string, tokens: { raw: string; at: number }[], claimed: Set<number>): string[] {
  const names: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) names.push(current.join(' '));
    current = [];
  };
  tokens.forEach((token, index) => {
    const word = token.raw.replace(/^\$/, '');
    const looksLikeName =
      !claimed.has(index) &&
      (token.raw.startsWith('$') || /^[A-Z]/.test(word)) &&
      !NOT_NAMES.has(word.toLowerCase()) &&
      // Shouted English words ("DROP TABLE") are not names; a capitalised one ("Tesla") may be.
      !(word.length >= 4 && word === word.toUpperCase() && isEnglishWord(word.toLowerCase())) &&
      !(index === 0 && !token.raw.startsWith('$') && !/^[A-Z]{2,5}$/.test(word));
    const adjacent =
      current.length > 0 &&
      /^\s+$/.test(text.slice(tokens[index - 1].at + tokens[index - 1].raw.length, token.at));
    if (looksLikeName && (current.length === 0 || adjacent)) current.push(word);
    else {
      flush();
      if (looksLikeName) current.push(word);
    }
  });
  flush();
  return names;
}

const PERIOD_PATTERNS: [RegExp, Period][] = [
  [/\b(ytd|year[- ]to[- ]date|this year|since (?:january|jan|the start of the year))\b/i, 'YTD'],
  [
    /\b(since (?:i )?(?:started|start|inception|the beginning|day one|i began)|all[- ]time|ever|overall|in total|since i (?:bought|opened))\b/i,
    'ALL',
  ],
  [/\b(6|six)[- ]?(months?|mo)\b|\bhalf[- ]a?[- ]?year\b/i, '6M'],
  [/\b(3|three)[- ]?(months?|mo)\b|\b(this|last|past) quarter\b|\bquarterly\b|\b3m\b/i, '3M'],
  [/\b(1|one|a|last|past|this)[- ]?(months?|mo)\b|\bmonthly\b|\b30 days\b|\b1m\b/i, '1M'],
  [/\b(12 months|(1|one|a|last|past) year|twelve months|annual(ly)?|yearly|1y)\b/i, '1Y'],
  [/\b(week|weekly|7 days|1w)\b/i, '1W'],
  [/\b(today|todays|today's|this (?:morning|session|afternoon)|intraday|so far today|1d|daily)\b/i, '1D'],
];

function periodIn(text: string): Period | null {
  for (const [pattern, period] of PERIOD_PATTERNS) if (pattern.test(text)) return period;
  return null;
}

function numbersIn(text: string): number[] {
  return [...text.matchAll(/(?<![A-Za-z])[-+]?\$?\d[\d,]*(?:\.\d+)?%?/g)]
    .map((match) => Number(match[0].replace(/[$,%+]/g, '')))
    .filter((value) => Number.isFinite(value));
}
