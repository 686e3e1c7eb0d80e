import type { SessionMove } from '../../../replay';
import {
  newYorkInstant,
  sessionDateOfStoryId,
  SessionMoves,
  shortName,
  WireStory,
  writeSessionWire,
} from './market-wire';

const BASE_URL = 'https://invest.example.com';

function move(
  symbol: string,
  name: string,
  sector: string | null,
  previousClose: number,
  close: number,
  extra: Partial<SessionMove> = {},
): SessionMove {
  return {
    symbol,
    name,
    sector,
    open: previousClose,
    high: Math.max(previousClose, close) + 1,
    low: Math.min(previousClose, close) - 1,
    close,
    previousClose,
    change: close - previousClose,
    changePercent: ((close - previousClose) / previousClose) * 100,
    volume: 1_000_000,
    averageVolume: 1_000_000,
    high52Week: 1_000,
    low52Week: 1,
    ...extra,
  };
}

// A Wednesday in winter (New York is UTC-5): stories are filed from 21:01Z.
const session: SessionMoves = {
  date: '2026-11-18',
  stocks: [
    move('AAPL', 'Apple Inc.', 'technology', 100, 109.5),
    move('MSFT', 'Microsoft Corp.', 'technology', 50, 51),
    move('NVDA', 'Nvidia Corporation', 'technology', 200, 204, {
      volume: 9_000_000,
      averageVolume: 3_000_000,
    }),
    move('ORCL', 'Oracle Corp.', 'technology', 40, 40.4),
    move('IBM', 'International Business Machines', 'technology', 150, 151.5),
    move('XOM', 'Exxon Mobil Corp.', 'energy', 80, 72),
    move('CVX', 'Chevron Corp.', 'energy', 100, 97),
    move('COP', 'ConocoPhillips', 'energy', 60, 59.1, { low: 55, low52Week: 55 }),
    move('OXY', 'Occidental Petroleum', 'energy', 50, 49.5),
    move('HES', 'Hess Corporation', 'energy', 70, 69.3),
    move('KO', 'Coca-Cola Company (The)', 'consumer_staples', 45, 45.2, { high: 47, high52Week: 47 }),
    move('BRK.B', 'Berkshire Hathaway', 'finance', 200, 200),
  ],
  indices: [
    move('^GSPC', 'S&P 500', null, 2000, 2024.6),
    move('^DJI', 'Dow Jones', null, 16000, 16120),
    move('^IXIC', 'NASDAQ', null, 4300, 4290),
  ],
};

describe('writeSessionWire', () => {
  const sut = (moves: SessionMoves = session): WireStory[] => writeSessionWire(moves, BASE_URL);
  const byId = (id: string): WireStory => {
    const story = sut().find((candidate) => candidate.id === id);
    if (!story) throw new Error(`no story ${id}`);
    return story;
  };

  it('is deterministic', () => {
    expect(sut()).toEqual(sut());
  });

  it('gives every story a unique id, a url under the service and the wire as source', () => {
    const stories = sut();
    expect(new Set(stories.map((story) => story.id)).size).toBe(stories.length);
    for (const story of stories) {
      expect(story.id).toMatch(/^20261118-[a-z0-9-]+$/);
      expect(story.url).toBe(`${BASE_URL}/api/v1/news/items/${story.id}`);
      expect(story.source).toBe('Market Replay Wire');
    }
  });

  it('files stories after the close of the session, newest first', () => {
    const times = sut().map((story) => story.publishedAt);
    expect(times).toEqual([...times].sort().reverse());
    for (const time of times) {
      expect(time >= '2026-11-18T21:01:00.000Z').toBe(true);
      expect(time <= '2026-11-18T21:50:00.000Z').toBe(true);
    }
  });

  it('writes the top gainer with the figures the quote shows', () => {
    const story = byId('20261118-gainer-aapl');
    expect(story.symbols).toEqual(['AAPL']);
    expect(story.featured).toBe(true);
    expect(story.title).toMatch(/^Apple\b.*9\.5%/);
    expect(story.description).toBe(
      'Shares of Apple Inc. closed at $109.50, up $9.50 (9.50%) from the previous close of $100.00, ' +
        'the biggest percentage gain in the S&P 500. The stock traded between $99.00 and $110.50. ' +
        'Volume was 1.0 million shares, 1.0 times the 20-day average.',
    );
  });

  it('writes the top loser as a decline', () => {
    const story = byId('20261118-loser-xom');
    expect(story.title).toMatch(/^Exxon Mobil\b.*10\.0%/);
    expect(story.description).toContain(
      'closed at $72.00, down $8.00 (10.00%) from the previous close of $80.00',
    );
    expect(story.description).toContain('the steepest percentage decline in the S&P 500');
  });

  it('ranks at most five gainers and five losers, leaving unchanged stocks out', () => {
    const ids = sut().map((story) => story.id);
    expect(ids.filter((id) => id.includes('-gainer-'))).toHaveLength(5);
    expect(ids.filter((id) => id.includes('-loser-'))).toHaveLength(5);
    expect(ids.some((id) => /-(gainer|loser)-brk-b$/.test(id))).toBe(false);
  });

  it('sums up the indices and market breadth', () => {
    const story = byId('20261118-market-close');
    expect(story.title).toContain('1.2%');
    expect(story.description).toBe(
      'The S&P 500 closed at 2,024.60, up 24.60 points (1.23%). The Dow Jones Industrial Average rose 0.75% to ' +
        '16,120.00 and the Nasdaq Composite fell 0.23% to 4,290.00. Advancers outnumbered decliners 6 to 5 among S&P 500 members.',
    );
    expect(story.symbols).toEqual(['^GSPC', '^DJI', '^IXIC']);
  });

  it('calls moves under 0.1% little changed', () => {
    const flat: SessionMoves = {
      ...session,
      indices: [
        move('^GSPC', 'S&P 500', null, 2000, 1998.6),
        move('^DJI', 'Dow Jones', null, 16000, 16000),
        move('^IXIC', 'NASDAQ', null, 4300, 4320),
      ],
    };
    const story = writeSessionWire(flat, BASE_URL).find(
      (candidate) => candidate.id === '20261118-market-close',
    );
    expect(story?.description).toBe(
      'The S&P 500 closed little changed at 1,998.60 (-0.07%). The Dow Jones Industrial Average was little changed at ' +
        '16,000.00 (0.00%) and the Nasdaq Composite rose 0.47% to 4,320.00. Advancers outnumbered decliners 6 to 5 among S&P 500 members.',
    );
  });

  it('names the leading and lagging sectors (five members or more) with their standouts', () => {
    const leader = byId('20261118-sector-technology');
    expect(leader.title).toMatch(/^Technology /);
    expect(leader.description).toContain(
      'The 5 S&P 500 technology stocks moved +3.10% on average (equal-weighted).',
    );
    expect(leader.description).toContain('Apple Inc. (AAPL) led at +9.50%');
    const laggard = byId('20261118-sector-energy');
    expect(laggard.description).toContain('Exxon Mobil Corp. (XOM) fared worst at -10.00%');
    expect(sut().some((story) => story.id.includes('sector-consumer-staples'))).toBe(false);
  });

  it('reports 52-week highs and lows', () => {
    const roundup = byId('20261118-52-week-range');
    expect(roundup.description).toBe(
      'Reaching new 52-week highs: Coca-Cola Company (The) (KO). Falling to new 52-week lows: ConocoPhillips (COP).',
    );
    expect(byId('20261118-high-ko').description).toContain(
      'touched $47.00 during the session, its highest price in 52 weeks',
    );
    // COP is already covered as a loser, so it gets no single 52-week story.
    expect(sut().some((story) => story.id === '20261118-low-cop')).toBe(false);
  });

  it('flags volume of twice the 20-day average or more', () => {
    const withVolume: SessionMoves = {
      ...session,
      stocks: [
        ...session.stocks,
        move('T', 'AT&T Inc.', 'telecommunications', 30, 30.1, {
          volume: 7_500_000,
          averageVolume: 2_500_000,
        }),
      ],
    };
    const story = writeSessionWire(withVolume, BASE_URL).find(
      (candidate) => candidate.id === '20261118-volume-t',
    );
    expect(story?.description).toBe(
      '7.5 million shares of AT&T Inc. traded, 3.0 times the 20-day average of 2.5 million. The stock closed at $30.10, up 0.33%.',
    );
  });

  it('writes a closing brief for every stock, reached only through its company', () => {
    const briefs = sut().filter((story) => story.id.includes('-brief-'));
    expect(briefs).toHaveLength(session.stocks.length);
    const berkshire = byId('20261118-brief-brk-b');
    expect(berkshire.featured).toBe(false);
    expect(berkshire.title).toBe('Berkshire Hathaway (BRK.B) closes unchanged at $200.00');
    expect(berkshire.searchText).toBe('BRK.B Berkshire Hathaway');
    expect(byId('20261118-brief-msft').title).toBe('Microsoft Corp. (MSFT) rises 2.00% to $51.00');
  });

  it('skips stocks without a usable previous close', () => {
    const broken: SessionMoves = {
      ...session,
      stocks: [...session.stocks, move('BAD', 'Broken Data', 'energy', 0, 10)],
    };
    expect(writeSessionWire(broken, BASE_URL).some((story) => story.symbols.includes('BAD'))).toBe(false);
  });
});

describe('sessionDateOfStoryId', () => {
  it.each([
    ['20261120-gainer-aapl', '2026-11-20'],
    ['20240229-market-close', '2024-02-29'],
    ['20261131-market-close', null],
    ['2026112-market-close', null],
    ['20261120', null],
    ['20261120-Gainer-AAPL', null],
    ['../etc/passwd', null],
  ])('reads %s as %s', (id, date) => {
    expect(sessionDateOfStoryId(id)).toBe(date);
  });
});

describe('newYorkInstant', () => {
  it('follows daylight saving time', () => {
    expect(newYorkInstant('2026-07-15', 16 * 60 + 5).toISOString()).toBe('2026-07-15T20:05:00.000Z');
    expect(newYorkInstant('2026-11-18', 16 * 60 + 5).toISOString()).toBe('2026-11-18T21:05:00.000Z');
  });
});

describe('shortName', () => {
  it.each([
    ['Apple Inc.', 'Apple'],
    ['Boeing Company', 'Boeing'],
    ['Alphabet Inc Class A', 'Alphabet'],
    ['Arthur J. Gallagher & Co.', 'Arthur J. Gallagher'],
    ['American Airlines Group', 'American Airlines'],
    ['News Corp. Class A', 'News Corp.'],
    ['Aon plc', 'Aon plc'],
    ['Coca-Cola Company (The)', 'Coca-Cola'],
    ['Lilly (Eli) & Co.', 'Eli Lilly'],
    ['Grainger (W.W.) Inc.', 'W.W. Grainger'],
    ['Baker Hughes, a GE Company', 'Baker Hughes'],
    ['Williams Cos.', 'Williams'],
    ['Mylan N.V.', 'Mylan'],
    ['CSX Corp.', 'CSX'],
    ['AT&T Inc.', 'AT&T'],
    ['ConocoPhillips', 'ConocoPhillips'],
  ])('shortens %s to %s', (name, short) => {
    expect(shortName(name)).toBe(short);
  });
});
