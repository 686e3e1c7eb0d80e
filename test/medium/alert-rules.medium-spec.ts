import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AlertRule, NewAlertRule } from '../../src/modules/alerts/alert-rule';
import {
  AlertRulesRepository,
  ANY_SENTIMENT,
  PassLevels,
  QuoteLevel,
} from '../../src/modules/alerts/alert-rules.repository';
import { UsersModule } from '../../src/modules/users/users.module';
import { newUser } from './builders';
import { bootMedium, MediumModule } from './medium-module';

@Module({ imports: [UsersModule], providers: [AlertRulesRepository] })
class AlertRulesWithUsersModule {}

const armedAt = new Date('2026-03-02T15:00:00.000Z');
const rule = (kind: NewAlertRule['kind'], symbol: string | null, thresholds: NewAlertRule['thresholds']) => ({
  kind,
  symbol,
  thresholds,
  rearm: 'never' as const,
  rearmMinutes: null,
});

/**
 * The evaluation pass's candidates: the database compares every kind but sentiment_shift with what
 * the pass read first (quotes, news levels, watchlist moves, ledger owners), so only the rules that
 * could fire come back, a page at a time in id order.
 */
describe('AlertRulesRepository.candidatesAfter on PostgreSQL', () => {
  let medium: MediumModule;
  let rules: AlertRulesRepository;
  const ids: Record<string, number> = {};
  let userId: number;
  let otherUserId: number;

  beforeAll(async () => {
    medium = await bootMedium(AlertRulesWithUsersModule);
    rules = medium.get(AlertRulesRepository);
    userId = (await newUser(medium)).id;
    otherUserId = (await newUser(medium)).id;
    const add = async (name: string, newRule: NewAlertRule, owner = userId) => {
      ids[name] = (await rules.insert(owner, newRule, armedAt, 100))!.id;
    };
    await add('aboveAtThreshold', rule('price_above', 'AAPL', { price: 187.35 }));
    await add('aboveUnreached', rule('price_above', 'AAPL', { price: 187.36 }));
    await add('belowAtThreshold', rule('price_below', 'MSFT', { price: 410.1 }));
    await add('belowUnreached', rule('price_below', 'MSFT', { price: 410.09 }));
    await add('moveAtThreshold', rule('day_change', 'MSFT', { percent: 2.5 }));
    await add('moveUnreached', rule('day_change', 'AAPL', { percent: 1.3 }));
    await add('unquoted', rule('price_above', 'KO', { price: 1 }));
    await add('portfolioMove', rule('day_change', 'portfolio', { percent: 50 }));
    await add('portfolioWithoutLedger', rule('drawdown', 'portfolio', { percent: 50 }), otherUserId);
    await add('drawdownAtThreshold', rule('drawdown', 'AAPL', { percent: 6.325 }));
    await add('drawdownUnreached', rule('drawdown', 'AAPL', { percent: 6.33 }));
    await add('news', rule('news', 'AAPL', {}));
    await add('newsTooStrong', rule('news', 'AAPL', { sentiment: 'positive', min_score: 0.51 }));
    await add('newsBeforeArming', rule('news', 'MSFT', {}));
    await add('sentimentShift', rule('sentiment_shift', 'AAPL', { window_days: 7, delta: 0.3 }));
    await add('watchlistUnreached', rule('watchlist_move', null, { percent: 40 }), otherUserId);
    await add('watchlist', rule('watchlist_move', null, { percent: 40 }));
    // The peak since arming is 200, then the price falls to the quote's 187.35: a 6.325 % drawdown.
    await rules.raiseSymbolPeaks([{ symbol: 'AAPL', price: 200, changePercent: 0 }]);
    await rules.raiseSymbolPeaks(quotes);
  });
  afterAll(() => medium.close());

  const quotes: QuoteLevel[] = [
    { symbol: 'AAPL', price: 187.35, changePercent: 1.29 },
    { symbol: 'MSFT', price: 410.1, changePercent: -2.5 },
  ];
  const levels = (): PassLevels => ({
    quotes,
    news: [
      { symbol: 'AAPL', sentiment: ANY_SENTIMENT, latestMs: armedAt.getTime() + 1, strongestScore: 0.5 },
      { symbol: 'AAPL', sentiment: 'positive', latestMs: armedAt.getTime() + 1, strongestScore: 0.5 },
      { symbol: 'MSFT', sentiment: ANY_SENTIMENT, latestMs: armedAt.getTime(), strongestScore: 0.9 },
    ],
    watchlistMoves: [
      { userId, percent: 40 },
      { userId: otherUserId, percent: 39.99 },
    ],
    ledgerOwners: [userId],
  });
  const names = (page: AlertRule[]) =>
    page.map((found) => Object.keys(ids).find((name) => ids[name] === found.id)).sort();

  it('returns the rules their levels reach (at the threshold included) and sentiment_shift rules', async () => {
    const page = await rules.candidatesAfter(0, 100, levels());

    expect(await rules.activeCount()).toBe(17);
    expect(names(page)).toEqual(
      [
        'aboveAtThreshold',
        'belowAtThreshold',
        'moveAtThreshold',
        'portfolioMove',
        'drawdownAtThreshold',
        'news',
        'sentimentShift',
        'watchlist',
      ].sort(),
    );
    expect(page.map((found) => found.id)).toEqual([...page.map((found) => found.id)].sort((a, b) => a - b));
    expect(page.find((found) => found.id === ids.aboveAtThreshold)).toMatchObject({
      kind: 'price_above',
      symbol: 'AAPL',
      thresholds: { price: 187.35 },
      armedAt,
    });
    expect(page.find((found) => found.id === ids.drawdownAtThreshold)).toMatchObject({ peak: 200 });
  });

  it('pages by id through the candidates', async () => {
    const first = await rules.candidatesAfter(0, 3, levels());
    expect(names(first)).toEqual(['aboveAtThreshold', 'belowAtThreshold', 'moveAtThreshold']);

    const rest = await rules.candidatesAfter(first[2].id, 100, levels());
    expect(names(rest)).toEqual([
      'drawdownAtThreshold',
      'news',
      'portfolioMove',
      'sentimentShift',
      'watchlist',
    ]);
  });

  it('names the users of the watchlist and portfolio rules and the symbols of the news rules', async () => {
    expect((await rules.activeWatchlistUsers()).sort()).toEqual([userId, otherUserId].sort());
    expect((await rules.activePortfolioUsers()).sort()).toEqual([userId, otherUserId].sort());
    expect((await rules.activeNewsTargets()).sort()).toEqual(['AAPL', 'MSFT']);
  });

  it('names each symbol the active quote rules watch once', async () => {
    expect((await rules.activeQuoteTargets()).sort()).toEqual(['AAPL', 'KO', 'MSFT']);
    await rules.update(userId, ids.unquoted, { status: 'paused' }, armedAt);
    expect((await rules.activeQuoteTargets()).sort()).toEqual(['AAPL', 'MSFT']);
  });

  it('analyses the table when the planner believes far fewer rules active than there are', async () => {
    const db = medium.get(DataSource);
    await db.query(
      `INSERT INTO alert_rules (user_id, kind, target, params, status, armed_at, created_at)
       SELECT $1, 'price_above', 'AAPL', '{"price": 1000000}', 'paused', $2, $2 FROM generate_series(1, 3000)`,
      [otherUserId, armedAt],
    );
    await db.query(`ANALYZE alert_rules`);
    await db.query(`UPDATE alert_rules SET status = 'active' WHERE user_id = $1`, [otherUserId]);
    const active = await rules.activeCount();

    expect(await rules.refreshStaleStatistics(active)).toBe(true);
    expect(await rules.refreshStaleStatistics(active)).toBe(false);
  });
});
