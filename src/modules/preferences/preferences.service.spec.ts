import { InMemoryPreferencesRepository } from '../../../test/fakes/in-memory-preferences-repository';
import { MemoryConsistentCache } from '../../common/cache/memory-consistent-cache';
import { DomainError, DomainErrorKind } from '../../common/errors/domain-errors';
import { defaultsForLevel } from './level-defaults';
import { PreferencesService } from './preferences.service';
import { FakeClock } from '../../../test/fakes/clock';

/** What the domain error the call fails with means (the filter turns the kind into the status) and its detail. */
async function domainError(
  call: Promise<unknown> | (() => Promise<unknown>),
): Promise<{ kind: DomainErrorKind; detail: string }> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (error) {
    if (error instanceof DomainError) return { kind: error.kind, detail: error.detail };
    throw error;
  }
  throw new Error('expected the call to fail with a domain error');
}

const USER = 7;
const OTHER_USER = 8;
const T0 = '2026-01-05T09:00:00.000Z';
const T1 = '2026-01-05T10:30:00.000Z';
const T2 = '2026-01-06T08:00:00.000Z';

describe('PreferencesService', () => {
  let clock: FakeClock;
  let sut: PreferencesService;

  beforeEach(() => {
    clock = new FakeClock(T0);
    sut = new PreferencesService(new InMemoryPreferencesRepository(), clock, new MemoryConsistentCache(100));
  });

  describe('create', () => {
    it('fills absent fields from the defaults of the given level and stamps both timestamps', async () => {
      const created = await sut.create(USER, {
        experience_level: 'intermediate',
        risk_tolerance: 'aggressive',
      });

      expect(created).toEqual({
        id: 1,
        userId: USER,
        ...defaultsForLevel('intermediate'),
        risk_tolerance: 'aggressive',
        onboardingCompleted: false,
        onboardingCompletedAt: null,
        createdAt: T0,
        updatedAt: T0,
      });
    });

    it('ignores fields given as undefined rather than blanking the default', async () => {
      const created = await sut.create(USER, { experience_level: 'beginner', watchlist: undefined });

      expect(created.watchlist).toEqual([]);
    });

    it('refuses a second record for the same user and leaves the first unchanged', async () => {
      await sut.create(USER, { experience_level: 'beginner' });

      expect(await domainError(sut.create(USER, { experience_level: 'advanced' }))).toEqual({
        kind: 'conflict',
        detail: 'User preferences already exist',
      });
      expect((await sut.get(USER)).experience_level).toBe('beginner');
    });
  });

  describe('get and findForUser', () => {
    it('fails as not found with the spec detail when the user has no record', async () => {
      expect(await domainError(sut.get(USER))).toEqual({
        kind: 'not-found',
        detail: 'User preferences not found',
      });
      await expect(sut.findForUser(USER)).resolves.toBeNull();
    });

    it("never returns another user's record", async () => {
      await sut.create(OTHER_USER, { experience_level: 'advanced' });

      await expect(sut.findForUser(USER)).resolves.toBeNull();
    });
  });

  describe('update', () => {
    it('changes only the given fields and refreshes updated_at', async () => {
      await sut.create(USER, { experience_level: 'beginner', watchlist: ['AAPL'] });
      clock.set(T1);

      const updated = await sut.update(USER, { privacy_level: 'minimal', brokerage_platform: 'webull' });

      expect(updated).toEqual({
        ...(await sut.get(USER)),
        ...defaultsForLevel('beginner'),
        watchlist: ['AAPL'],
        privacy_level: 'minimal',
        brokerage_platform: 'webull',
        createdAt: T0,
        updatedAt: T1,
      });
    });

    it('fails as not found with its own detail when there is nothing to update', async () => {
      expect(await domainError(sut.update(USER, { privacy_level: 'minimal' }))).toEqual({
        kind: 'not-found',
        detail: 'User preferences not found to update',
      });
    });
  });

  describe('remove', () => {
    it('deletes the record, and succeeds again when there is none', async () => {
      await sut.create(USER, { experience_level: 'beginner' });

      await sut.remove(USER);
      await sut.remove(USER);

      await expect(sut.findForUser(USER)).resolves.toBeNull();
    });
  });

  describe('defaults and getOrCreate', () => {
    it('rejects an unknown level with the spec detail', async () => {
      expect(await domainError(async () => sut.defaults('expert'))).toEqual({
        kind: 'rule-violation',
        detail: 'Invalid experience level. Must be: beginner, intermediate, or advanced',
      });
    });

    it('creates from the level defaults when there is no record', async () => {
      const created = await sut.getOrCreate(USER, 'advanced');

      expect(created).toMatchObject({ userId: USER, ...defaultsForLevel('advanced'), createdAt: T0 });
    });

    it('returns an existing record untouched, whatever the level asked for', async () => {
      const existing = await sut.create(USER, { experience_level: 'beginner' });
      clock.set(T1);

      await expect(sut.getOrCreate(USER, 'advanced')).resolves.toEqual(existing);
    });

    it('rejects an unknown level even when a record exists', async () => {
      await sut.create(USER, { experience_level: 'beginner' });

      expect(await domainError(sut.getOrCreate(USER, 'Beginner'))).toEqual({
        kind: 'rule-violation',
        detail: 'Invalid experience level. Must be: beginner, intermediate, or advanced',
      });
    });
  });

  describe('runWizard', () => {
    it("creates a record from the essential step's level, then applies every step", async () => {
      const result = await sut.runWizard(
        USER,
        {
          essential: { experience_level: 'advanced', risk_tolerance: 'moderate' },
          portfolio: { watchlist: ['NVDA'] },
          advanced: { privacy_level: 'limited' },
        },
        false,
      );

      expect(result).toEqual({
        id: 1,
        userId: USER,
        ...defaultsForLevel('advanced'),
        risk_tolerance: 'moderate',
        watchlist: ['NVDA'],
        privacy_level: 'limited',
        onboardingCompleted: false,
        onboardingCompletedAt: null,
        createdAt: T0,
        updatedAt: T0,
      });
    });

    it('starts from the beginner defaults when no level is given', async () => {
      const result = await sut.runWizard(USER, { communication: { alert_frequency: 'weekly' } }, false);

      expect(result).toMatchObject({ ...defaultsForLevel('beginner'), alert_frequency: 'weekly' });
    });

    it('changes only the given fields of an existing record; a new level brings no new defaults', async () => {
      await sut.create(USER, { experience_level: 'beginner' });
      clock.set(T1);

      const result = await sut.runWizard(USER, { essential: { experience_level: 'advanced' } }, false);

      expect(result).toMatchObject({
        ...defaultsForLevel('beginner'),
        experience_level: 'advanced',
        createdAt: T0,
        updatedAt: T1,
      });
    });

    it('marks onboarding completed and keeps the time it was first completed', async () => {
      const first = await sut.runWizard(USER, {}, true);
      clock.set(T1);
      await sut.runWizard(USER, { advanced: { esg_importance: 'very' } }, false);
      clock.set(T2);
      const again = await sut.runWizard(USER, {}, true);

      expect(first).toMatchObject({ onboardingCompleted: true, onboardingCompletedAt: T0 });
      expect(again).toMatchObject({
        onboardingCompleted: true,
        onboardingCompletedAt: T0,
        esg_importance: 'very',
        updatedAt: T2,
      });
    });
  });

  describe('replaceWatchlist', () => {
    it('stores the symbols upper-cased and refreshes updated_at', async () => {
      await sut.create(USER, { experience_level: 'beginner', watchlist: ['IBM'] });
      clock.set(T1);

      const result = await sut.replaceWatchlist(USER, ['aapl', 'Msft']);

      expect(result).toMatchObject({ watchlist: ['AAPL', 'MSFT'], updatedAt: T1 });
    });

    it.each([
      [Array.from({ length: 51 }, () => 'AAPL'), 'Watchlist cannot exceed 50 symbols'],
      [['AAPL', 'TOOLONG', 12], 'Invalid ticker symbols: TOOLONG, 12'],
      [['AAPL', 'msft', 'aapl'], 'Duplicate ticker symbols: AAPL'],
    ])('rejects %j as a rule violation "%s" and keeps the old list', async (symbols, detail) => {
      await sut.create(USER, { experience_level: 'beginner', watchlist: ['IBM'] });

      expect(await domainError(sut.replaceWatchlist(USER, symbols))).toEqual({
        kind: 'rule-violation',
        detail,
      });
      expect((await sut.get(USER)).watchlist).toEqual(['IBM']);
    });

    it('fails as not found when the user has no record', async () => {
      expect(await domainError(sut.replaceWatchlist(USER, ['AAPL']))).toEqual({
        kind: 'not-found',
        detail: 'User preferences not found',
      });
    });
  });
});
