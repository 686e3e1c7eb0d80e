import { DataSource } from 'typeorm';
import { DomainError } from '../../src/common/errors/domain-errors';
import { UserAdministrationService } from '../../src/modules/users/user-administration.service';
import { UsersModule } from '../../src/modules/users/users.module';
import { newUser as storedUser } from './builders';
import { bootMedium, MediumModule } from './medium-module';

/** The SQL behind account administration (row locks, the unique email index) on a real database. */
describe('UserAdministrationService on PostgreSQL', () => {
  let medium: MediumModule;
  let sut: UserAdministrationService;

  beforeAll(async () => {
    medium = await bootMedium(UsersModule);
    sut = medium.get(UserAdministrationService);
  });
  afterAll(() => medium.close());

  beforeEach(() => medium.get(DataSource).query('DELETE FROM users'));

  const newUser = (isSuperuser: boolean) => storedUser(medium, { isSuperuser });

  const activeSuperusers = async () =>
    (
      await medium
        .get(DataSource)
        .query<{ count: number }[]>(
          'SELECT count(*)::int AS count FROM users WHERE is_superuser AND is_active',
        )
    )[0].count;

  /** Each failure's detail, in order; a success is null. */
  const outcomes = (results: PromiseSettledResult<unknown>[]) =>
    results.map((result) => {
      if (result.status === 'fulfilled') return null;
      if (result.reason instanceof DomainError) return `${result.reason.kind}: ${result.reason.detail}`;
      throw result.reason;
    });

  it.each([1, 2, 3, 4, 5])(
    'two superusers demoting each other at once: one succeeds, one active superuser is left (round %i)',
    async () => {
      const [first, second] = [await newUser(true), await newUser(true)];

      const results = await Promise.allSettled([
        sut.update(first.id, second.id, { isSuperuser: false }),
        sut.update(second.id, first.id, { isSuperuser: false }),
      ]);

      expect(outcomes(results).sort()).toEqual([
        null,
        'rule-violation: Cannot remove superuser status from the last active superuser',
      ]);
      expect(await activeSuperusers()).toBe(1);
    },
  );

  it('two superusers deleting each other at once: one succeeds, one active superuser is left', async () => {
    const [first, second] = [await newUser(true), await newUser(true)];

    const results = await Promise.allSettled([
      sut.delete(first.id, second.id),
      sut.delete(second.id, first.id),
    ]);

    expect(outcomes(results).sort()).toEqual([
      null,
      'rule-violation: Cannot delete the last active superuser',
    ]);
    expect(await activeSuperusers()).toBe(1);
  });

  it('a deactivation racing a demotion of the other superuser: one succeeds', async () => {
    const [first, second] = [await newUser(true), await newUser(true)];

    const results = await Promise.allSettled([
      sut.setActive(first.id, false, second.id),
      sut.update(second.id, first.id, { isSuperuser: false }),
    ]);

    expect(outcomes(results).filter((outcome) => outcome === null)).toHaveLength(1);
    expect(await activeSuperusers()).toBe(1);
  });

  it('two accounts renamed to one email (in another case) at once: one succeeds, the other is told the email is taken', async () => {
    const [first, second] = [await newUser(false), await newUser(false)];

    const results = await Promise.allSettled([
      sut.update(first.id, 0, { email: 'shared@example.com' }),
      sut.update(second.id, 0, { email: 'Shared@Example.com' }),
    ]);

    expect(outcomes(results).sort()).toEqual([null, 'rule-violation: Email already in use by another user']);
    const emails = await medium
      .get(DataSource)
      .query<{ email: string }[]>('SELECT email FROM users WHERE email = $1', ['shared@example.com']);
    expect(emails).toHaveLength(1);
  });

  it('refuses to change, or to delete, an id that names no user', async () => {
    await expect(sut.update(2_147_483_647, 0, { fullName: 'Nobody' })).rejects.toMatchObject({
      kind: 'not-found',
      detail: 'User not found',
    });
    await expect(sut.delete(Number.MAX_SAFE_INTEGER, 0)).rejects.toMatchObject({ kind: 'not-found' });
  });
});
