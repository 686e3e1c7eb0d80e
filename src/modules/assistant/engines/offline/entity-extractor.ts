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
 * Finds tickers, company names, a period and numbers in free text. Names resolve through the
 * market's symbol data (plus a few everyday aliases); nothing is guessed: a capitalised name that
 * matches nothing is reported as unknown.
 */
export class EntityExtractor {
  private readonly symbols: Set<string>;
  private readonly names = new Map<string, string>();
  private readonly longestName: number;

  constructor(directory: readonly DirectoryEntry[]) {
    this.symbols = new Set(directory.map((entry) => entry.symbol));
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
      if (symbols.length === 1 && !this.names.has(word)) this.names.set(word, symbols[0]);
    }
    for (const [alias, symbol] of Object.entries(ALIASES)) {
      if (this.symbols.has(symbol)) this.names.set(alias, symbol);
    }
    this.longestName = Math.max(...[...this.names.keys()].map((name) => name.split(' ').length));
  }

  extract(text: string): ExtractedEntities {
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
        const symbol = this.names.get(span.map((index) => words[index]).join(' '));
        if (!symbol) continue;
        span.forEach((index) => claimed.add(index));
        found.push({ at: tokens[start].at, symbol });
      }
    }
    tokens.forEach((token, index) => {
      if (claimed.has(index)) return;
      const symbol = this.tickerIn(token.raw);
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
