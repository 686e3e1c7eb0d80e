import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/time/clock';
import { defaultsForLevel } from '../../src/modules/preferences/level-defaults';
import { PreferenceFields } from '../../src/modules/preferences/preference-values';
import { PreferencesModule } from '../../src/modules/preferences/preferences.module';
import { PreferencesService } from '../../src/modules/preferences/preferences.service';
import { User } from '../../src/modules/users';
import { UsersModule } from '../../src/modules/users/users.module';
import { FakeClock } from '../fakes/clock';
import { newPreferences, newUser } from './builders';
import { refusal } from './domain-outcomes';
import { bootMedium, MediumModule } from './medium-module';

@Module({ imports: [PreferencesModule, UsersModule] })
class PreferencesWithUsersModule {}

const INVALID_LEVEL = 'Invalid experience level. Must be: beginner, intermediate, or advanced';

const FULL: PreferenceFields = {
  experience_level: 'intermediate',
  investment_style: 'swing',
  risk_tolerance: 'aggressive',
  brokerage_platform: 'interactive_brokers',
  investment_types: ['crypto', 'bonds'],
  analysis_depth: 'technical',
  information_sources: [
    { type: 'social', priority: 6 },
    { type: 'economic', priority: 1 },
  ],
  market_sectors: ['utilities', 'telecommunications'],
  geographic_focus: 'global',
  daily_summary_time: 'convenient',
  alert_frequency: 'hourly',
  esg_importance: 'very',
  explanation_style: 'bottom-line-first',
  watchlist: ['AAPL', 'BRKB', 'T'],
  privacy_level: 'minimal',
};

/** A distinct valid ticker for each index (AA, AB, ..., BA, ...). */
const letters = (index: number) =>
  String.fromCharCode(65 + Math.floor(index / 26)) + String.fromCharCode(65 + (index % 26));

/** The preference rules: one record per user from the level defaults, the wizard, the watchlist. */
describe('PreferencesService on PostgreSQL', () => {
  const clock = new FakeClock();
  let medium: MediumModule;
  let sut: PreferencesService;

  beforeAll(async () => {
    medium = await bootMedium(PreferencesWithUsersModule, (builder) =>
      builder.overrideProvider(Clock).useValue(clock),
    );
    sut = medium.get(PreferencesService);
  });
  afterAll(() => medium.close());

  // Hashing a password is most of a user's cost: two users serve every test, their records removed before each.
  let accounts: User[];
  let taken = 0;
  beforeAll(async () => {
    accounts = [await newUser(medium), await newUser(medium)];
  });
  beforeEach(async () => {
    taken = 0;
    for (const account of accounts) await sut.remove(account.id);
  });
  const user = async () => accounts[taken++];
  const storedRows = (userId: number) =>
    medium.get(DataSource).query('SELECT id FROM user_preferences WHERE user_id = $1', [userId]);

  describe('create', () => {
    it('creates from the level defaults when only the experience level is given', async () => {
      const owner = await user();
      const created = await newPreferences(medium, owner);
      expect(created).toEqual({
        id: expect.any(Number),
        userId: owner.id,
        ...defaultsForLevel('beginner'),
        onboardingCompleted: false,
        onboardingCompletedAt: null,
        createdAt: clock.now().toISOString(),
        updatedAt: clock.now().toISOString(),
      });
      expect(await sut.get(owner.id)).toEqual(created);
    });

    it('stores every given field as given, and takes absent ones from the level given', async () => {
      const [full, advanced] = [await user(), await user()];
      expect(await newPreferences(medium, full, FULL)).toMatchObject(FULL);
      expect(await sut.get(full.id)).toMatchObject(FULL);
      expect(
        await newPreferences(medium, advanced, { experience_level: 'advanced', privacy_level: 'limited' }),
      ).toMatchObject({ ...defaultsForLevel('advanced'), privacy_level: 'limited' });
    });

    it('keeps an explicit null brokerage platform', async () => {
      const owner = await user();
      const created = await newPreferences(medium, owner, {
        experience_level: 'beginner',
        brokerage_platform: null,
      });
      expect(created.brokerage_platform).toBeNull();
    });

    it('refuses a second record and leaves the first unchanged', async () => {
      const owner = await user();
      const first = await newPreferences(medium, owner);
      await expect(sut.create(owner.id, FULL)).rejects.toEqual(
        refusal('conflict', 'User preferences already exist'),
      );
      expect(await sut.get(owner.id)).toEqual(first);
    });

    it('lets exactly one of ten concurrent creations in, and stores one record', async () => {
      const owner = await user();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, index) =>
          sut.create(owner.id, { experience_level: 'beginner', watchlist: [`S${letters(index)}`] }),
        ),
      );
      const created = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect(created).toHaveLength(1);
      for (const outcome of outcomes.filter((settled) => settled.status === 'rejected'))
        expect(outcome.reason).toEqual(refusal('conflict', 'User preferences already exist'));
      expect(await storedRows(owner.id)).toHaveLength(1);
      expect(await sut.get(owner.id)).toEqual((created[0] as PromiseFulfilledResult<unknown>).value);
    });
  });

  describe('update and remove', () => {
    it('changes only the given fields, keeps createdAt and refreshes updatedAt', async () => {
      const owner = await user();
      const created = await newPreferences(medium, owner, {
        experience_level: 'beginner',
        watchlist: ['MSFT'],
      });
      clock.advance(60_000);
      const updated = await sut.update(owner.id, {
        risk_tolerance: 'moderate',
        brokerage_platform: 'vanguard',
        watchlist: ['NVDA'],
      });
      expect(updated).toEqual({
        ...created,
        risk_tolerance: 'moderate',
        brokerage_platform: 'vanguard',
        watchlist: ['NVDA'],
        updatedAt: clock.now().toISOString(),
      });
      expect(await sut.get(owner.id)).toEqual(updated);
      expect((await sut.update(owner.id, { brokerage_platform: null })).brokerage_platform).toBeNull();
    });

    it('with no changes, changes nothing but updatedAt', async () => {
      const owner = await user();
      const created = await newPreferences(medium, owner, { experience_level: 'advanced' });
      clock.advance(1_000);
      expect(await sut.update(owner.id, {})).toEqual({ ...created, updatedAt: clock.now().toISOString() });
    });

    it('has nothing to update, or to read, without a record', async () => {
      const owner = await user();
      await expect(sut.update(owner.id, { risk_tolerance: 'moderate' })).rejects.toEqual(
        refusal('not-found', 'User preferences not found to update'),
      );
      await expect(sut.get(owner.id)).rejects.toEqual(refusal('not-found', 'User preferences not found'));
      expect(await storedRows(owner.id)).toEqual([]);
    });

    it('removes the record, also when there is none, and lets the user create a new one', async () => {
      const owner = await user();
      await newPreferences(medium, owner);
      await sut.remove(owner.id);
      await expect(sut.get(owner.id)).rejects.toEqual(refusal('not-found', 'User preferences not found'));
      await sut.remove(owner.id);
      expect((await newPreferences(medium, owner, { experience_level: 'advanced' })).experience_level).toBe(
        'advanced',
      );
    });
  });

  describe('defaults', () => {
    it.each(['expert', 'Beginner', 'beginner ', '1'])('knows no level %j', (level) => {
      expect(() => sut.defaults(level)).toThrow(refusal('rule-violation', INVALID_LEVEL));
    });
  });

  describe('the wizard', () => {
    it('creates a record from the defaults of the essential step level, then applies every step', async () => {
      const owner = await user();
      const result = await sut.runWizard(
        owner.id,
        {
          essential: {
            experience_level: 'intermediate',
            investment_style: 'day',
            risk_tolerance: 'aggressive',
          },
          portfolio: { investment_types: ['stocks'], brokerage_platform: 'robinhood', watchlist: ['AMD'] },
          information: {
            analysis_depth: 'simple',
            information_sources: [{ type: 'social', priority: 1 }],
            market_sectors: ['energy'],
            geographic_focus: 'us',
          },
          communication: { daily_summary_time: 'lunch', alert_frequency: 'weekly' },
          advanced: { esg_importance: 'not', explanation_style: 'step-by-step', privacy_level: 'limited' },
        },
        false,
      );
      expect(result).toEqual({
        id: expect.any(Number),
        userId: owner.id,
        experience_level: 'intermediate',
        investment_style: 'day',
        risk_tolerance: 'aggressive',
        brokerage_platform: 'robinhood',
        investment_types: ['stocks'],
        analysis_depth: 'simple',
        information_sources: [{ type: 'social', priority: 1 }],
        market_sectors: ['energy'],
        geographic_focus: 'us',
        daily_summary_time: 'lunch',
        alert_frequency: 'weekly',
        esg_importance: 'not',
        explanation_style: 'step-by-step',
        watchlist: ['AMD'],
        privacy_level: 'limited',
        onboardingCompleted: false,
        onboardingCompletedAt: null,
        createdAt: clock.now().toISOString(),
        updatedAt: clock.now().toISOString(),
      });
      expect(await sut.get(owner.id)).toEqual(result);
    });

    it('takes the missing fields from the level of the essential step, or the beginner ones', async () => {
      const [advanced, unnamed] = [await user(), await user()];
      expect(
        await sut.runWizard(advanced.id, { essential: { experience_level: 'advanced' } }, false),
      ).toMatchObject(defaultsForLevel('advanced'));
      expect(
        await sut.runWizard(unnamed.id, { communication: { alert_frequency: 'hourly' } }, false),
      ).toMatchObject({ ...defaultsForLevel('beginner'), alert_frequency: 'hourly' });
    });

    it('changes only the fields of the given steps on an existing record', async () => {
      const owner = await user();
      const created = await newPreferences(medium, owner, {
        experience_level: 'beginner',
        watchlist: ['IBM'],
      });
      clock.advance(60_000);
      expect(await sut.runWizard(owner.id, { advanced: { privacy_level: 'minimal' } }, false)).toEqual({
        ...created,
        privacy_level: 'minimal',
        updatedAt: clock.now().toISOString(),
      });
    });

    it('stamps the record it creates with one instant for creation, update and completion', async () => {
      const owner = await user();
      const result = await sut.runWizard(owner.id, { essential: { experience_level: 'advanced' } }, true);
      expect(result).toMatchObject({
        createdAt: clock.now().toISOString(),
        updatedAt: clock.now().toISOString(),
        onboardingCompletedAt: clock.now().toISOString(),
      });
    });

    it('marks onboarding completed and keeps the first completion time', async () => {
      const owner = await user();
      const first = await sut.runWizard(owner.id, {}, true);
      clock.advance(60_000);
      const second = await sut.runWizard(owner.id, { essential: { risk_tolerance: 'moderate' } }, true);
      const notCompleting = await sut.runWizard(owner.id, {}, false);
      expect(first).toMatchObject({ onboardingCompleted: true, onboardingCompletedAt: expect.any(String) });
      expect(second).toMatchObject({
        onboardingCompleted: true,
        onboardingCompletedAt: first.onboardingCompletedAt,
        risk_tolerance: 'moderate',
      });
      expect(notCompleting.onboardingCompleted).toBe(true);
    });
  });

  describe('get or create', () => {
    it('creates a record from the level defaults', async () => {
      const owner = await user();
      expect(await sut.getOrCreate(owner.id, 'intermediate')).toMatchObject({
        userId: owner.id,
        ...defaultsForLevel('intermediate'),
        onboardingCompleted: false,
        onboardingCompletedAt: null,
      });
      expect(await storedRows(owner.id)).toHaveLength(1);
    });

    it('returns an existing record untouched, whatever level is asked for', async () => {
      const owner = await user();
      const existing = await newPreferences(medium, owner, {
        experience_level: 'beginner',
        watchlist: ['KO'],
      });
      clock.advance(60_000);
      expect(await sut.getOrCreate(owner.id, 'advanced')).toEqual(existing);
      expect(await sut.get(owner.id)).toEqual(existing);
    });

    it('creates exactly one record under concurrent calls', async () => {
      const owner = await user();
      const records = await Promise.all(
        Array.from({ length: 5 }, () => sut.getOrCreate(owner.id, 'beginner')),
      );
      expect(new Set(records.map(({ id }) => id)).size).toBe(1);
      expect(await storedRows(owner.id)).toHaveLength(1);
    });

    it('refuses another level and creates nothing', async () => {
      const owner = await user();
      await expect(sut.getOrCreate(owner.id, 'guru')).rejects.toEqual(
        refusal('rule-violation', INVALID_LEVEL),
      );
      expect(await storedRows(owner.id)).toEqual([]);
    });
  });

  describe('the watchlist', () => {
    it('replaces the watchlist with the symbols upper-cased and refreshes updatedAt', async () => {
      const owner = await user();
      const created = await newPreferences(medium, owner, {
        experience_level: 'beginner',
        watchlist: ['IBM'],
      });
      clock.advance(60_000);
      expect(await sut.replaceWatchlist(owner.id, ['aapl', 'Msft', 'T'])).toEqual({
        ...created,
        watchlist: ['AAPL', 'MSFT', 'T'],
        updatedAt: clock.now().toISOString(),
      });
      expect((await sut.get(owner.id)).watchlist).toEqual(['AAPL', 'MSFT', 'T']);
    });

    it('accepts an empty list and exactly 50 symbols', async () => {
      const owner = await user();
      await newPreferences(medium, owner, { experience_level: 'beginner', watchlist: ['IBM'] });
      const fifty = Array.from({ length: 50 }, (_, index) => letters(index));
      expect((await sut.replaceWatchlist(owner.id, [])).watchlist).toEqual([]);
      expect((await sut.replaceWatchlist(owner.id, fifty)).watchlist).toEqual(fifty);
    });

    it.each([
      [
        '51 symbols',
        Array.from({ length: 51 }, (_, index) => letters(index)),
        'Watchlist cannot exceed 50 symbols',
      ],
      ['a 7-letter symbol and a number', ['AAPL', 'TOOLONG', 12], 'Invalid ticker symbols: TOOLONG, 12'],
      [
        'malformed symbols, listed as sent',
        ['aapl', 'toolong', 'A1', ''],
        'Invalid ticker symbols: toolong, A1, ',
      ],
      ['a duplicate after upper-casing', ['AAPL', 'msft', 'aapl'], 'Duplicate ticker symbols: AAPL'],
    ])('refuses %s with the spec detail and keeps the old list', async (_case, symbols, detail) => {
      const owner = await user();
      await newPreferences(medium, owner, { experience_level: 'beginner', watchlist: ['IBM'] });
      await expect(sut.replaceWatchlist(owner.id, symbols)).rejects.toEqual(
        refusal('rule-violation', detail),
      );
      expect((await sut.get(owner.id)).watchlist).toEqual(['IBM']);
    });

    it('has no watchlist to replace without a record', async () => {
      const owner = await user();
      await expect(sut.replaceWatchlist(owner.id, ['AAPL'])).rejects.toEqual(
        refusal('not-found', 'User preferences not found'),
      );
    });
  });

  describe('isolation between users', () => {
    it('lets each user reach and change only their own record', async () => {
      const [alice, bob] = [await user(), await user()];
      const alicePrefs = await newPreferences(medium, alice, {
        experience_level: 'advanced',
        watchlist: ['AAPL'],
      });

      await expect(sut.get(bob.id)).rejects.toEqual(refusal('not-found', 'User preferences not found'));
      await expect(sut.update(bob.id, { risk_tolerance: 'moderate' })).rejects.toMatchObject({
        kind: 'not-found',
      });
      await expect(sut.replaceWatchlist(bob.id, ['TSLA'])).rejects.toMatchObject({ kind: 'not-found' });
      await sut.remove(bob.id);
      expect(await sut.get(alice.id)).toEqual(alicePrefs);

      const bobPrefs = await newPreferences(medium, bob);
      expect(bobPrefs.userId).toBe(bob.id);
      expect(bobPrefs.id).not.toBe(alicePrefs.id);
      await sut.update(alice.id, { privacy_level: 'minimal' });
      await sut.remove(alice.id);
      expect(await sut.get(bob.id)).toEqual(bobPrefs);
    });

    it("gives get-or-create and the wizard the caller's own record only", async () => {
      const [alice, bob] = [await user(), await user()];
      const bobPrefs = await newPreferences(medium, bob);
      const aliceCreated = await sut.getOrCreate(alice.id, 'advanced');
      const aliceWizard = await sut.runWizard(alice.id, {}, true);
      expect(aliceCreated.userId).toBe(alice.id);
      expect(aliceWizard.id).toBe(aliceCreated.id);
      expect(await sut.get(bob.id)).toEqual(bobPrefs);
    });
  });

  it("deletes a user's preferences with the user", async () => {
    const carol = await newUser(medium);
    await newPreferences(medium, carol);
    await medium.get(DataSource).query('DELETE FROM users WHERE id = $1', [carol.id]);
    expect(await storedRows(carol.id)).toEqual([]);
  });
});
