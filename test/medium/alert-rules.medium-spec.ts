import { Module } from '@nestjs/common';
import { AlertRule, NewAlertRule } from '../../src/modules/alerts/alert-rule';
import { AlertRulesRepository, QuoteLevel } from '../../src/modules/alerts/alert-rules.repository';
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
 * The evaluation pass's page of active rules: the database compares price and symbol day-change
 * rules with the quotes, so only those a price reaches come back, while every rule is counted.
 */
describe('AlertRulesRepository.activePage on PostgreSQL', () => {
  let medium: MediumModule;
  let rules: AlertRulesRepository;
  const ids: Record<string, number> = {};
  let userId: number;

  beforeAll(async () => {
    medium = await bootMedium(AlertRulesWithUsersModule);
    rules = medium.get(AlertRulesRepository);
    userId = (await newUser(medium)).id;
    const add = async (name: string, newRule: NewAlertRule) => {
      ids[name] = (await rules.insert(userId, newRule, armedAt, 100))!.id;
    };
    await add('aboveAtThreshold', rule('price_above', 'AAPL', { price: 187.35 }));
    await add('aboveUnreached', rule('price_above', 'AAPL', { price: 187.36 }));
    await add('belowAtThreshold', rule('price_below', 'MSFT', { price: 410.1 }));
    await add('belowUnreached', rule('price_below', 'MSFT', { price: 410.09 }));
    await add('moveAtThreshold', rule('day_change', 'MSFT', { percent: 2.5 }));
    await add('moveUnreached', rule('day_change', 'AAPL', { percent: 1.3 }));
    await add('unquoted', rule('price_above', 'KO', { price: 1 }));
    await add('portfolioMove', rule('day_change', 'portfolio', { percent: 50 }));
    await add('drawdown', rule('drawdown', 'AAPL', { percent: 90 }));
    await add('news', rule('news', 'AAPL', {}));
    await add('watchlist', rule('watchlist_move', null, { percent: 40 }));
  });
  afterAll(() => medium.close());

  const quotes: QuoteLevel[] = [
    { symbol: 'AAPL', price: 187.35, changePercent: 1.29 },
    { symbol: 'MSFT', price: 410.1, changePercent: -2.5 },
  ];
  const names = (page: AlertRule[]) =>
    page.map((found) => Object.keys(ids).find((name) => ids[name] === found.id)).sort();

  it('returns the rules a price reaches (at the threshold included) and those judged outside it', async () => {
    const page = await rules.activePage(0, 100, quotes);

    expect(page.scanned).toBe(11);
    expect(page.lastId).toBe(ids.watchlist);
    expect(names(page.rules)).toEqual(
      [
        'aboveAtThreshold',
        'belowAtThreshold',
        'moveAtThreshold',
        'portfolioMove',
        'drawdown',
        'news',
        'watchlist',
      ].sort(),
    );
    expect(page.rules.find((found) => found.id === ids.aboveAtThreshold)).toMatchObject({
      kind: 'price_above',
      symbol: 'AAPL',
      thresholds: { price: 187.35 },
      armedAt,
    });
  });

  it('pages by id, counting every active rule of the page, and ends with an empty page', async () => {
    const first = await rules.activePage(0, 4, quotes);
    expect(first).toMatchObject({ scanned: 4, lastId: ids.belowUnreached });
    expect(names(first.rules)).toEqual(['aboveAtThreshold', 'belowAtThreshold']);

    const rest = await rules.activePage(first.lastId!, 100, quotes);
    expect(rest.scanned).toBe(7);

    expect(await rules.activePage(rest.lastId!, 100, quotes)).toEqual({
      scanned: 0,
      lastId: null,
      rules: [],
    });
  });

  it('names each symbol the active quote rules watch once', async () => {
    expect((await rules.activeQuoteTargets()).sort()).toEqual(['AAPL', 'KO', 'MSFT']);
    await rules.update(userId, ids.unquoted, { status: 'paused' }, armedAt);
    expect((await rules.activeQuoteTargets()).sort()).toEqual(['AAPL', 'MSFT']);
  });
});
