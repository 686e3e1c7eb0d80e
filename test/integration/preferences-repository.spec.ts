import { DataSource } from 'typeorm';
import { defaultsForLevel } from '../../src/modules/preferences/level-defaults';
import { toAllColumns } from '../../src/modules/preferences/preference-columns';
import {
  NewPreferencesRecord,
  PreferencesRepository,
} from '../../src/modules/preferences/preferences.repository';
import { registerUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';

const T0 = new Date('2026-01-05T09:00:00.000Z');
const T1 = new Date('2026-01-05T10:30:00.000Z');

/** The preference records' SQL (insert-unless-present, owner-scoped writes) on a real database. */
describe('PreferencesRepository on PostgreSQL', () => {
  let app: TestApp;
  let sut: PreferencesRepository;

  beforeAll(async () => {
    app = await createTestApp();
    sut = app.app.get(PreferencesRepository);
  });
  afterAll(() => app.close());

  const newRecord = (userId: number, level: 'beginner' | 'advanced' = 'beginner'): NewPreferencesRecord => ({
    userId,
    ...toAllColumns(defaultsForLevel(level)),
    onboardingCompleted: false,
    onboardingCompletedAt: null,
    createdAt: T0,
    updatedAt: T0,
  });
  const storedFor = async (userId: number) =>
    (
      await app.app
        .get(DataSource)
        .query<{ count: number }[]>(
          'SELECT count(*)::int AS count FROM user_preferences WHERE user_id = $1',
          [userId],
        )
    )[0].count;

  it('ten inserts for one user at once: one returns the record, nine return null, one row is stored', async () => {
    const { id: userId } = await registerUser(app);

    const results = await Promise.all(
      Array.from({ length: 10 }, () => sut.insertIfAbsent(newRecord(userId))),
    );

    const inserted = results.filter((result) => result !== null);
    expect(inserted).toHaveLength(1);
    expect(inserted[0]).toMatchObject({ userId, experienceLevel: 'beginner', createdAt: T0 });
    expect(await storedFor(userId)).toBe(1);
  });

  it("updates and deletes only the owner's record, and updating a user without one creates nothing", async () => {
    const [owner, other, without] = [
      await registerUser(app),
      await registerUser(app),
      await registerUser(app),
    ];
    await sut.insertIfAbsent(newRecord(owner.id));
    await sut.insertIfAbsent(newRecord(other.id, 'advanced'));

    const updated = await sut.updateByUserId(owner.id, { privacyLevel: 'minimal', updatedAt: T1 });
    expect(updated).toMatchObject({
      userId: owner.id,
      privacyLevel: 'minimal',
      updatedAt: T1,
      createdAt: T0,
    });
    expect(await sut.findByUserId(other.id)).toMatchObject({ experienceLevel: 'advanced', updatedAt: T0 });
    expect(await sut.updateByUserId(without.id, { privacyLevel: 'minimal', updatedAt: T1 })).toBeNull();
    expect(await storedFor(without.id)).toBe(0);

    await sut.deleteByUserId(owner.id);
    expect(await sut.findByUserId(owner.id)).toBeNull();
    expect(await sut.findByUserId(other.id)).not.toBeNull();
  });
});
