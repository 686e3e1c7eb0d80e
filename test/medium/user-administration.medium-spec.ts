import { DataSource } from 'typeorm';
import { DomainError } from '../../src/common/errors/domain-errors';
import { UserAdministrationService } from '../../src/modules/users/user-administration.service';
import { UsersModule } from '../../src/modules/users/users.module';
import { UsersService } from '../../src/modules/users/users.service';
import { newUser as storedUser } from './builders';
import { fieldProblem, invalidFields, refusal } from './domain-outcomes';
import { bootMedium, MediumModule } from './medium-module';

const STRONG = 'correct horse battery staple';
const weakPassword = (path: string) => invalidFields(fieldProblem([path], /Password is too easy to guess\./));

/**
 * Registration and account administration on a real database: the email's one stored form, the
 * password policy, the own-account rules, and the SQL behind them (row locks, the unique email index).
 */
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

  describe('registering and changing an account', () => {
    let users: UsersService;
    let administration: UserAdministrationService;

    beforeAll(() => {
      users = medium.get(UsersService);
      administration = sut;
    });

    const storedEmails = (like: string) =>
      medium.get(DataSource).query('SELECT email FROM users WHERE email LIKE $1 ORDER BY email', [like]);

    describe('registering', () => {
      it('stores the email in one form (NFC, lower case, trimmed) and a hash that verifies the password', async () => {
        const user = await users.create({
          email: '  Zoe\u0301.Register@Example.COM ',
          password: STRONG,
          fullName: 'Zoé Register',
        });
        expect(user).toMatchObject({
          email: 'zo\u00e9.register@example.com',
          fullName: 'Zoé Register',
          isActive: true,
          isSuperuser: false,
        });
        expect(await storedEmails('zo%.register@example.com')).toEqual([
          { email: 'zo\u00e9.register@example.com' },
        ]);
        expect(await users.verifyCredentials('ZOE\u0301.register@example.com', STRONG)).toMatchObject({
          id: user.id,
        });
        expect(await users.verifyCredentials('zo\u00e9.register@example.com', `${STRONG}!`)).toBeNull();
        expect(await users.verifyCredentials('nobody@example.com', STRONG)).toBeNull();
        const [{ hashed_password: hash }] = await medium
          .get(DataSource)
          .query('SELECT hashed_password FROM users WHERE id = $1', [user.id]);
        expect(hash).not.toContain(STRONG);
      });

      it('refuses an email already registered in any case, storing nothing', async () => {
        await users.create({ email: 'taken@example.com', password: STRONG, fullName: 'First' });
        await expect(
          users.create({ email: 'Taken@Example.com', password: STRONG, fullName: 'Second' }),
        ).rejects.toEqual(refusal('rule-violation', 'Email already registered'));
        expect(await storedEmails('taken@example.com')).toHaveLength(1);
      });

      it('holds the password to the policy, with the account’s own words counted as guessable', async () => {
        await expect(
          users.create({ email: 'weak@example.com', password: 'password1', fullName: 'Weak' }),
        ).rejects.toEqual(weakPassword('password'));
        await expect(
          users.create({
            email: 'margaret.hamilton@example.com',
            password: 'MargaretHamilton',
            fullName: 'Margaret Hamilton',
          }),
        ).rejects.toEqual(weakPassword('password'));
        expect(await storedEmails('%weak@example.com')).toEqual([]);
      });

      it('lets only one of two concurrent registrations of one email in', async () => {
        const outcomes = await Promise.allSettled(
          ['race@example.com', 'RACE@example.com'].map((email) =>
            users.create({ email, password: STRONG, fullName: 'Racer' }),
          ),
        );
        expect(outcomes.map(({ status }) => status).sort()).toEqual(['fulfilled', 'rejected']);
        expect(
          (outcomes.find(({ status }) => status === 'rejected') as PromiseRejectedResult).reason,
        ).toEqual(refusal('rule-violation', 'Email already registered'));
      });
    });

    describe('changing an account', () => {
      it('stores a changed email in its one form and forgets the cached auth state', async () => {
        const user = await storedUser(medium);
        expect((await users.authState(user.id))!.email).toBe(user.email);
        const changed = await administration.update(user.id, 0, {
          email: ' Renamed.Once@Example.com',
          fullName: 'Renamed',
        });
        expect(changed).toMatchObject({ email: 'renamed.once@example.com', fullName: 'Renamed' });
        expect(await users.authState(user.id)).toMatchObject({
          email: 'renamed.once@example.com',
          fullName: 'Renamed',
        });
      });

      it('holds a new password to the policy against the new email and name, and the own-password change too', async () => {
        const user = await storedUser(medium);
        await expect(
          administration.update(user.id, 0, {
            email: 'grace.hopper@example.com',
            fullName: 'Grace Hopper',
            password: 'GraceHopper',
          }),
        ).rejects.toEqual(weakPassword('password'));
        await expect(administration.changePassword(user.id, 'password1')).rejects.toEqual(
          weakPassword('new_password'),
        );
        await administration.changePassword(user.id, 'another correct horse battery');
        expect(await users.verifyCredentials(user.email, 'another correct horse battery')).toMatchObject({
          id: user.id,
        });
        expect(await users.verifyCredentials(user.email, STRONG)).toBeNull();
      });

      it('refuses to deactivate or delete one’s own account, and to leave no active superuser', async () => {
        const admin = await storedUser(medium, { isSuperuser: true });
        await expect(administration.update(admin.id, admin.id, { isActive: false })).rejects.toEqual(
          refusal('rule-violation', 'Cannot deactivate your own account'),
        );
        await expect(
          Promise.resolve().then(() => administration.setActive(admin.id, false, admin.id)),
        ).rejects.toEqual(refusal('rule-violation', 'Cannot deactivate your own account'));
        await expect(administration.delete(admin.id, admin.id)).rejects.toEqual(
          refusal('rule-violation', 'Cannot delete your own account'),
        );
        expect(await administration.get(admin.id)).toMatchObject({ isActive: true, isSuperuser: true });
      });

      it('deletes an account with every row that is its own', async () => {
        const [user, admin] = [await storedUser(medium), await storedUser(medium, { isSuperuser: true })];
        await administration.delete(user.id, admin.id);
        await expect(administration.get(user.id)).rejects.toEqual(refusal('not-found', 'User not found'));
        expect(await users.authState(user.id)).toBeNull();
      });
    });
  });
});
