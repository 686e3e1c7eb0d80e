import { DataSource } from 'typeorm';
import { UserAdministrationService } from '../../src/modules/users/user-administration.service';
import { UsersModule } from '../../src/modules/users/users.module';
import { UsersService } from '../../src/modules/users/users.service';
import { newUser } from './builders';
import { fieldProblem, invalidFields, refusal } from './domain-outcomes';
import { bootMedium, MediumModule } from './medium-module';

const STRONG = 'correct horse battery staple';
const weakPassword = (path: string) => invalidFields(fieldProblem([path], /Password is too easy to guess\./));

/** Registration and account changes: the email's one stored form, the password policy, the own-account rules. */
describe('UsersService and account changes on PostgreSQL', () => {
  let medium: MediumModule;
  let users: UsersService;
  let administration: UserAdministrationService;

  beforeAll(async () => {
    medium = await bootMedium(UsersModule);
    users = medium.get(UsersService);
    administration = medium.get(UserAdministrationService);
  });
  afterAll(() => medium.close());

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
      expect((outcomes.find(({ status }) => status === 'rejected') as PromiseRejectedResult).reason).toEqual(
        refusal('rule-violation', 'Email already registered'),
      );
    });
  });

  describe('changing an account', () => {
    it('stores a changed email in its one form and forgets the cached auth state', async () => {
      const user = await newUser(medium);
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
      const user = await newUser(medium);
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
      const admin = await newUser(medium, { isSuperuser: true });
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
      const [user, admin] = [await newUser(medium), await newUser(medium, { isSuperuser: true })];
      await administration.delete(user.id, admin.id);
      await expect(administration.get(user.id)).rejects.toEqual(refusal('not-found', 'User not found'));
      expect(await users.authState(user.id)).toBeNull();
    });
  });
});
