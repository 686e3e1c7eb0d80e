// The offline market wire: stories written from one replayed session's closing moves. Pure and
// deterministic: the same session always gives the same stories, ids, times and wording (wording
// varies between stories through a hash of the story id, not through randomness).

import { newYorkTime } from '../../../../common/time/new-york-time';
import type { SessionMove } from '../../../replay';

export const WIRE_SOURCE = 'Market Replay Wire';

export interface SessionMoves {
  /** YYYY-MM-DD of the trading day. */
  date: string;
  stocks: SessionMove[];
  indices: SessionMove[];
}

export interface WireStory {
  /** `<yyyymmdd>-<kind>[-<subject>]`, e.g. 20261120-gainer-aapl; the date says which session to rebuild. */
  id: string;
  title: string;
  description: string;
  source: typeof WIRE_SOURCE;
  url: string;
  publishedAt: string;
  /** Tickers the story is about. */
  symbols: string[];
  /**
   * Featured stories make the general feed; the per-company closing briefs are reached only
   * through their company (a symbol filter, or a search naming the ticker or the company).
   */
  featured: boolean;
  /** What keyword filters and searches match against. */
  searchText: string;
}

const MOVERS_PER_SIDE = 5;
const FIFTY_TWO_WEEK_STORIES_PER_SIDE = 2;
const VOLUME_STORIES = 3;
/** Volume at least this many times the 20-day average is unusual. */
const UNUSUAL_VOLUME_RATIO = 2;
/** An index moving less than this (in percent) is reported as little changed. */
const LITTLE_CHANGED_PERCENT = 0.1;
/** Sectors with fewer members make no sector story (an average of two is not a sector move). */
const MIN_SECTOR_MEMBERS = 5;

const INDEX_TITLES: Record<string, string> = {
  '^GSPC': 'the S&P 500',
  '^DJI': 'the Dow Jones Industrial Average',
  '^IXIC': 'the Nasdaq Composite',
};

const SECTOR_NAMES: Record<string, string> = {
  technology: 'Technology',
  healthcare: 'Health care',
  finance: 'Financial',
  energy: 'Energy',
  consumer_discretionary: 'Consumer discretionary',
  consumer_staples: 'Consumer staples',
  industrials: 'Industrial',
  materials: 'Materials',
  utilities: 'Utility',
  real_estate: 'Real estate',
  telecommunications: 'Telecom',
};

/**
 * Minutes after midnight, New York time, each kind of story is filed at (plus 2 minutes per rank):
 * the single-stock stories first, the sector and market wrap-ups last, so the newest story of a
 * session is its market close.
 */
const FILED_AT = {
  brief: 16 * 60 + 1,
  gainer: 16 * 60 + 5,
  loser: 16 * 60 + 6,
  fiftyTwoWeek: 16 * 60 + 20,
  high: 16 * 60 + 22,
  low: 16 * 60 + 23,
  volume: 16 * 60 + 25,
  sectorLeader: 16 * 60 + 40,
  sectorLaggard: 16 * 60 + 42,
  close: 16 * 60 + 45,
};

/** Every story of one session, newest first (ties by id). */
export function writeSessionWire(session: SessionMoves, baseUrl: string): WireStory[] {
  const writer = new SessionWriter(session, baseUrl);
  return writer.stories().sort(newestFirst);
}

export function newestFirst(a: WireStory, b: WireStory): number {
  if (a.publishedAt !== b.publishedAt) return a.publishedAt < b.publishedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The session date a story id belongs to, or null when the id cannot be a wire id. */
export function sessionDateOfStoryId(id: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})-[a-z0-9-]+$/.exec(id);
  if (!match) return null;
  const date = `${match[1]}-${match[2]}-${match[3]}`;
  return Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ||
    new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date
    ? null
    : date;
}

class SessionWriter {
  private readonly datePrefix: string;
  private readonly covered = new Set<string>();
  private readonly instants = new Map<number, string>();
  private readonly names: Map<string, string>;

  constructor(
    private readonly session: SessionMoves,
    private readonly baseUrl: string,
  ) {
    this.datePrefix = session.date.replaceAll('-', '');
    this.names = new Map(session.stocks.map((move) => [move.symbol, move.name]));
  }

  stories(): WireStory[] {
    const stocks = this.session.stocks.filter(isUsable);
    return [
      ...this.marketClose(stocks),
      ...this.sectors(stocks),
      ...this.movers(stocks),
      ...this.fiftyTwoWeek(stocks),
      ...this.unusualVolume(stocks),
      ...stocks.map((move) => this.brief(move)),
    ];
  }

  private marketClose(stocks: SessionMove[]): WireStory[] {
    const bySymbol = new Map(this.session.indices.map((move) => [move.symbol, move]));
    const sp = bySymbol.get('^GSPC');
    if (!sp) return [];
    const id = this.id('market-close');
    const pct = sp.changePercent;
    const title = pick(id, closingHeadlines(pct));
    const others = ['^DJI', '^IXIC']
      .map((symbol) => bySymbol.get(symbol))
      .filter((move): move is SessionMove => move !== undefined)
      .map(indexClause);
    const advancers = stocks.filter((move) => round2(move.change) > 0).length;
    const decliners = stocks.filter((move) => round2(move.change) < 0).length;
    const breadth =
      advancers === decliners
        ? `Advancers and decliners were evenly matched at ${advancers} each among S&P 500 members.`
        : advancers > decliners
          ? `Advancers outnumbered decliners ${advancers} to ${decliners} among S&P 500 members.`
          : `Decliners outnumbered advancers ${decliners} to ${advancers} among S&P 500 members.`;
    const description = [
      round2(sp.change) === 0
        ? `The S&P 500 closed unchanged at ${level(sp.close)}.`
        : Math.abs(pct) < LITTLE_CHANGED_PERCENT
          ? `The S&P 500 closed little changed at ${level(sp.close)} (${signedPercent(pct)}).`
          : `The S&P 500 closed at ${level(sp.close)}, ${direction(sp.change)} ${level(Math.abs(sp.change))} points (${percent(pct)}).`,
      others.length > 0 ? `${capitalize(others.join(' and '))}.` : '',
      breadth,
    ]
      .filter(Boolean)
      .join(' ');
    return [this.story(id, 'close', title, description, [...bySymbol.keys()], true)];
  }

  private sectors(stocks: SessionMove[]): WireStory[] {
    const bySector = new Map<string, SessionMove[]>();
    for (const move of stocks) {
      if (!move.sector) continue;
      bySector.set(move.sector, [...(bySector.get(move.sector) ?? []), move]);
    }
    const averages = [...bySector.entries()]
      .filter(([, members]) => members.length >= MIN_SECTOR_MEMBERS)
      .map(([sector, members]) => ({
        sector,
        members,
        average: members.reduce((sum, move) => sum + move.changePercent, 0) / members.length,
      }))
      .sort((a, b) => b.average - a.average || a.sector.localeCompare(b.sector));
    if (averages.length < 2) return [];
    const leader = averages[0];
    const laggard = averages[averages.length - 1];
    return [this.sectorStory(leader, 'leader'), this.sectorStory(laggard, 'laggard')];
  }

  private sectorStory(
    { sector, members, average }: { sector: string; members: SessionMove[]; average: number },
    role: 'leader' | 'laggard',
  ): WireStory {
    const id = this.id(`sector-${sector.replaceAll('_', '-')}`);
    const name = SECTOR_NAMES[sector] ?? capitalize(sector.replaceAll('_', ' '));
    const avg = percent(average, 1);
    const ranked = [...members].sort((a, b) =>
      role === 'leader' ? b.changePercent - a.changePercent : a.changePercent - b.changePercent,
    );
    const standouts = ranked.slice(0, 3);
    let title: string;
    if (role === 'leader') {
      title =
        round2(average) > 0
          ? pick(id, [
              `${name} stocks lead the S&P 500, up ${avg} on average`,
              `${name} shares outperform as the sector gains ${avg}`,
              `${name} sector tops the market with an average ${avg} advance`,
            ])
          : pick(id, [
              `${name} stocks hold up best in a weak market`,
              `${name} shares fall least as the sector slips ${avg}`,
            ]);
    } else {
      title =
        round2(average) < 0
          ? pick(id, [
              `${name} stocks lag the S&P 500, down ${avg} on average`,
              `${name} shares underperform as the sector drops ${avg}`,
              `${name} sector trails the market with an average ${avg} decline`,
            ])
          : pick(id, [
              `${name} stocks trail a broad advance`,
              `${name} shares gain least as the sector adds just ${avg}`,
            ]);
    }
    const lead = standouts[0];
    const rest = standouts
      .slice(1)
      .map((move) => `${move.name} (${move.symbol}, ${signedPercent(move.changePercent)})`);
    const description =
      `The ${members.length} S&P 500 ${name.toLowerCase()} stocks moved ${signedPercent(average)} on average (equal-weighted). ` +
      `${lead.name} (${lead.symbol}) ${role === 'leader' ? 'led' : 'fared worst'} at ${signedPercent(lead.changePercent)}, closing at ${money(lead.close)}` +
      (rest.length > 0 ? `, followed by ${rest.join(' and ')}.` : '.');
    const symbols = standouts.map((move) => move.symbol);
    const story = this.story(
      id,
      role === 'leader' ? 'sectorLeader' : 'sectorLaggard',
      title,
      description,
      symbols,
      true,
    );
    return { ...story, searchText: `${story.searchText} ${sector.replaceAll('_', ' ')}` };
  }

  private movers(stocks: SessionMove[]): WireStory[] {
    const gainers = stocks
      .filter((move) => round2(move.changePercent) > 0)
      .sort((a, b) => b.changePercent - a.changePercent || a.symbol.localeCompare(b.symbol))
      .slice(0, MOVERS_PER_SIDE);
    const losers = stocks
      .filter((move) => round2(move.changePercent) < 0)
      .sort((a, b) => a.changePercent - b.changePercent || a.symbol.localeCompare(b.symbol))
      .slice(0, MOVERS_PER_SIDE);
    return [
      ...gainers.map((move, rank) => this.moverStory(move, rank, 'gainer')),
      ...losers.map((move, rank) => this.moverStory(move, rank, 'loser')),
    ];
  }

  private moverStory(move: SessionMove, rank: number, side: 'gainer' | 'loser'): WireStory {
    this.covered.add(move.symbol);
    const id = this.id(`${side}-${slug(move.symbol)}`);
    const short = shortName(move.name);
    const pct = percent(move.changePercent, 1);
    const ratio = volumeRatio(move);
    const heavy = ratio !== null && ratio >= 1.5;
    const best = rank === 0;
    const title =
      side === 'gainer'
        ? pick(id, [
            `${short} (${move.symbol}) jumps ${pct} to ${money(move.close)}`,
            best ? `${short} shares surge ${pct}, the S&P 500's top gainer` : `${short} shares surge ${pct}`,
            heavy ? `${short} rallies ${pct} in heavy trading` : `${short} rallies ${pct}`,
            `${short} stock climbs ${pct} to close at ${money(move.close)}`,
          ])
        : pick(id, [
            `${short} (${move.symbol}) slides ${pct} to ${money(move.close)}`,
            best
              ? `${short} shares tumble ${pct}, the S&P 500's worst performer`
              : `${short} shares tumble ${pct}`,
            heavy ? `${short} drops ${pct} in heavy selling` : `${short} drops ${pct}`,
            `${short} stock falls ${pct} to close at ${money(move.close)}`,
          ]);
    const ranking =
      side === 'gainer'
        ? best
          ? 'the biggest percentage gain in the S&P 500'
          : `the number ${rank + 1} gain in the S&P 500`
        : best
          ? 'the steepest percentage decline in the S&P 500'
          : `the number ${rank + 1} decline in the S&P 500`;
    const description =
      `Shares of ${move.name} closed at ${money(move.close)}, ${direction(move.change)} ${money(Math.abs(move.change))} ` +
      `(${percent(move.changePercent)}) from the previous close of ${money(move.previousClose)}, ${ranking}. ` +
      `The stock traded between ${money(move.low)} and ${money(move.high)}. ${volumeSentence(move)}`;
    return this.story(id, side, title, description, [move.symbol], true, rank);
  }

  private fiftyTwoWeek(stocks: SessionMove[]): WireStory[] {
    const highs = stocks
      .filter((move) => move.high >= move.high52Week)
      .sort((a, b) => b.changePercent - a.changePercent || a.symbol.localeCompare(b.symbol));
    const lows = stocks
      .filter((move) => move.low <= move.low52Week)
      .sort((a, b) => a.changePercent - b.changePercent || a.symbol.localeCompare(b.symbol));
    if (highs.length === 0 && lows.length === 0) return [];
    const id = this.id('52-week-range');
    const listed = (moves: SessionMove[]): string => {
      const names = moves.slice(0, 5).map((move) => `${move.name} (${move.symbol})`);
      return moves.length > 5 ? `${names.join(', ')} and ${moves.length - 5} more` : joinAnd(names);
    };
    const title =
      highs.length >= lows.length
        ? pick(id, [
            `${count(highs.length, 'S&P 500 stock')} set 52-week highs; ${lows.length} hit lows`,
            `New 52-week highs outnumber lows ${highs.length} to ${lows.length}`,
          ])
        : pick(id, [
            `${count(lows.length, 'S&P 500 stock')} sink to 52-week lows; ${highs.length} reach highs`,
            `New 52-week lows outnumber highs ${lows.length} to ${highs.length}`,
          ]);
    const parts = [
      highs.length > 0
        ? `Reaching new 52-week highs: ${listed(highs)}.`
        : 'No S&P 500 stock reached a 52-week high.',
      lows.length > 0
        ? `Falling to new 52-week lows: ${listed(lows)}.`
        : 'No S&P 500 stock fell to a 52-week low.',
    ];
    const roundup = this.story(
      id,
      'fiftyTwoWeek',
      title,
      parts.join(' '),
      [...highs.slice(0, 5), ...lows.slice(0, 5)].map((move) => move.symbol),
      true,
    );
    const singles = [
      ...highs
        .filter((move) => !this.covered.has(move.symbol))
        .slice(0, FIFTY_TWO_WEEK_STORIES_PER_SIDE)
        .map((move) => this.extremeStory(move, 'high')),
      ...lows
        .filter((move) => !this.covered.has(move.symbol))
        .slice(0, FIFTY_TWO_WEEK_STORIES_PER_SIDE)
        .map((move) => this.extremeStory(move, 'low')),
    ];
    return [roundup, ...singles];
  }

  private extremeStory(move: SessionMove, side: 'high' | 'low'): WireStory {
    this.covered.add(move.symbol);
    const id = this.id(`${side}-${slug(move.symbol)}`);
    const short = shortName(move.name);
    const title =
      side === 'high'
        ? pick(id, [
            `${short} hits a 52-week high of ${money(move.high)}`,
            `${short} (${move.symbol}) reaches its highest level in a year`,
            `${short} shares touch a new 52-week high`,
          ])
        : pick(id, [
            `${short} sinks to a 52-week low of ${money(move.low)}`,
            `${short} (${move.symbol}) falls to its lowest level in a year`,
            `${short} shares touch a new 52-week low`,
          ]);
    const extreme = side === 'high' ? move.high : move.low;
    const description =
      `${move.name} touched ${money(extreme)} during the session, its ${side === 'high' ? 'highest' : 'lowest'} price in 52 weeks ` +
      `(range ${money(move.low52Week)} to ${money(move.high52Week)}), and closed at ${money(move.close)}, ` +
      `${dayMove(move)} on the day.`;
    return this.story(id, side, title, description, [move.symbol], true);
  }

  private unusualVolume(stocks: SessionMove[]): WireStory[] {
    return stocks
      .map((move) => ({ move, ratio: volumeRatio(move) }))
      .filter(
        (entry): entry is { move: SessionMove; ratio: number } =>
          entry.ratio !== null && entry.ratio >= UNUSUAL_VOLUME_RATIO,
      )
      .filter(({ move }) => !this.covered.has(move.symbol))
      .sort((a, b) => b.ratio - a.ratio || a.move.symbol.localeCompare(b.move.symbol))
      .slice(0, VOLUME_STORIES)
      .map(({ move, ratio }, rank) => {
        const id = this.id(`volume-${slug(move.symbol)}`);
        const short = shortName(move.name);
        const times = `${ratio.toFixed(1)} times`;
        const title = pick(id, [
          `Trading in ${short} swells to ${times} its usual volume`,
          `${short} (${move.symbol}) sees unusually heavy volume`,
          `Volume spike in ${short}: ${millions(move.volume)} shares change hands`,
        ]);
        const description =
          `${millions(move.volume)} shares of ${move.name} traded, ${times} the 20-day average of ${millions(move.averageVolume)}. ` +
          `The stock closed at ${money(move.close)}, ${dayMove(move)}.`;
        return this.story(id, 'volume', title, description, [move.symbol], true, rank);
      });
  }

  private brief(move: SessionMove): WireStory {
    const id = this.id(`brief-${slug(move.symbol)}`);
    const pct = round2(move.changePercent);
    const verb =
      pct === 0
        ? 'closes unchanged'
        : Math.abs(pct) < 0.25
          ? 'closes little changed'
          : Math.abs(pct) < 1
            ? pct > 0
              ? 'edges up'
              : 'edges down'
            : pct > 0
              ? 'rises'
              : 'falls';
    const title =
      Math.abs(pct) < 0.25
        ? `${move.name} (${move.symbol}) ${verb} at ${money(move.close)}`
        : `${move.name} (${move.symbol}) ${verb} ${percent(move.changePercent)} to ${money(move.close)}`;
    const description =
      `${move.name} ended the session at ${money(move.close)} against a previous close of ${money(move.previousClose)}, ` +
      `after opening at ${money(move.open)} and trading between ${money(move.low)} and ${money(move.high)}. ` +
      `${volumeSentence(move)} 52-week range: ${money(move.low52Week)} to ${money(move.high52Week)}.`;
    const story = this.story(id, 'brief', title, description, [move.symbol], false);
    return { ...story, searchText: `${move.symbol} ${move.name}` };
  }

  private filedAt(minuteOfDay: number): string {
    let instant = this.instants.get(minuteOfDay);
    if (!instant) {
      instant = newYorkInstant(this.session.date, minuteOfDay).toISOString();
      this.instants.set(minuteOfDay, instant);
    }
    return instant;
  }

  private id(subject: string): string {
    return `${this.datePrefix}-${subject}`;
  }

  private story(
    id: string,
    kind: keyof typeof FILED_AT,
    title: string,
    description: string,
    symbols: string[],
    featured: boolean,
    rank = 0,
  ): WireStory {
    const names = symbols.map((symbol) => this.names.get(symbol) ?? '').join(' ');
    return {
      id,
      title,
      description,
      source: WIRE_SOURCE,
      url: `${this.baseUrl}/api/v1/news/items/${id}`,
      publishedAt: this.filedAt(FILED_AT[kind] + 2 * rank),
      symbols,
      featured,
      searchText: `${title} ${description} ${symbols.join(' ')} ${names}`,
    };
  }
}

/** Rows with a usable previous close and prices (the history has a few gaps and bad records). */
function isUsable(move: SessionMove): boolean {
  return (
    [move.open, move.high, move.low, move.close, move.previousClose, move.changePercent].every(
      (value) => Number.isFinite(value) && value > -100,
    ) &&
    move.previousClose > 0 &&
    move.close > 0
  );
}

function closingHeadlines(pct: number): string[] {
  const size = percent(pct, 1);
  if (pct >= 1) {
    return [
      `Stocks rally as the S&P 500 jumps ${size}`,
      `Wall Street climbs broadly; S&P 500 gains ${size}`,
      `S&P 500 surges ${size} in a strong session for stocks`,
    ];
  }
  if (pct >= 0.25) {
    return [`S&P 500 edges higher, up ${size}`, `Stocks rise modestly as the S&P 500 gains ${size}`];
  }
  if (pct > -0.25) {
    return [
      `Stocks end little changed after a quiet session`,
      `Wall Street finishes flat; S&P 500 ${pct >= 0 ? 'up' : 'down'} ${size}`,
    ];
  }
  if (pct > -1) {
    return [`S&P 500 slips ${size} as stocks drift lower`, `Stocks retreat; S&P 500 down ${size}`];
  }
  return [
    `Stocks sell off as the S&P 500 drops ${size}`,
    `Wall Street slides; S&P 500 loses ${size}`,
    `S&P 500 tumbles ${size} in a broad decline`,
  ];
}

function indexClause(move: SessionMove): string {
  const name = INDEX_TITLES[move.symbol];
  if (Math.abs(move.changePercent) < LITTLE_CHANGED_PERCENT) {
    return `${name} was little changed at ${level(move.close)} (${signedPercent(move.changePercent)})`;
  }
  return `${name} ${move.change > 0 ? 'rose' : 'fell'} ${percent(move.changePercent)} to ${level(move.close)}`;
}

function volumeSentence(move: SessionMove): string {
  const ratio = volumeRatio(move);
  if (move.volume <= 0) return 'No volume was reported.';
  if (ratio === null) return `Volume was ${millions(move.volume)} shares.`;
  return `Volume was ${millions(move.volume)} shares, ${ratio.toFixed(1)} times the 20-day average.`;
}

function volumeRatio(move: SessionMove): number | null {
  return move.averageVolume > 0 && move.volume > 0 ? move.volume / move.averageVolume : null;
}

/** The first New York instant of `minuteOfDay` on `date`, whatever the daylight-saving offset. */
export function newYorkInstant(date: string, minuteOfDay: number): Date {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  for (const offsetHours of [4, 5]) {
    const candidate = new Date(midnightUtc + (minuteOfDay * 60 + offsetHours * 3600) * 1000);
    const local = newYorkTime(candidate);
    if (local.date === date && local.msOfDay === minuteOfDay * 60_000) return candidate;
  }
  throw new Error(`no New York instant for ${date} minute ${minuteOfDay}`);
}

/** Stable choice among templates, by a hash of the story id (FNV-1a). */
function pick(id: string, options: string[]): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return options[hash % options.length];
}

function slug(symbol: string): string {
  return symbol.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

const LEGAL_SUFFIX =
  /,?\s+(inc\.?|corp\.?|corporation|co\.?|cos\.?|company|plc|ltd\.?|limited|n\.v\.|holdings?|group|class [a-z]|[a-z])$/i;

/**
 * "Apple Inc." → "Apple", "Lilly (Eli) & Co." → "Eli Lilly": how a headline names a company. A
 * name that would shrink to one short ordinary word keeps its suffix ("News Corp.", not "News").
 */
export function shortName(name: string): string {
  let short = name
    .trim()
    .replace(/\s+\(the\)$/i, '')
    .replace(/,\s+a\s+.*$/i, '')
    .replace(/^(\S+)\s+\(([^)]+)\)/, '$2 $1')
    .replace(/,?\s+&\s*co\.?$/i, '');
  while (LEGAL_SUFFIX.test(short)) {
    const stripped = short.replace(LEGAL_SUFFIX, '').trim();
    if (/^[A-Z][a-z]{0,3}$/.test(stripped)) break;
    short = stripped;
  }
  return short;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Money as the quote endpoints show it: two decimals, thousands separated. */
function money(value: number): string {
  return `$${level(value)}`;
}

const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function level(value: number): string {
  return twoDecimals.format(round2(value));
}

/** Unsigned percentage, 2 decimals by default (the quote endpoints' precision). */
function percent(value: number, decimals = 2): string {
  return `${Math.abs(value).toFixed(decimals)}%`;
}

function signedPercent(value: number): string {
  const rounded = round2(value);
  return `${rounded > 0 ? '+' : rounded < 0 ? '-' : ''}${Math.abs(rounded).toFixed(2)}%`;
}

/** For nonzero changes (callers word an unchanged close themselves). */
function direction(change: number): string {
  return change > 0 ? 'up' : 'down';
}

function dayMove(move: SessionMove): string {
  return round2(move.change) === 0 ? 'unchanged' : `${direction(move.change)} ${percent(move.changePercent)}`;
}

function millions(volume: number): string {
  return volume >= 1_000_000
    ? `${(volume / 1_000_000).toFixed(1)} million`
    : wholeNumber.format(Math.round(volume));
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function joinAnd(items: string[]): string {
  return items.length <= 1
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
