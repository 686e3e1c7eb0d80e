import { DataSource } from 'typeorm';
import { createSuperuser, login, registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { typedApi } from '../support/typed-api';
import { PasswordHasher } from '../../src/modules/users/password-hasher';

const TOO_EASY = expect.stringMatching(/^Value error, Password is too easy to guess\./);

describe('new passwords must be hard to guess (NIST SP 800-63B)', () => {
  let sut: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    sut = await createTestApp();
    admin = await createSuperuser(sut);
  });
  afterAll(() => sut.close());

  const register = (email: string, password: string) =>
    typedApi(sut).POST('/api/v1/users/register', { body: { email, password, full_name: 'Weak Choice' } });

  it.each([
    ['a heavily used password', 'password', 'This is a heavily used password.'],
    ['digits in a row', '12345678', 'This is a heavily used password.'],
    ['eight spaces', '        ', 'Repeated characters like "aaa" are easy to guess.'],
    ['a common password with a digit', 'password1', 'This is a commonly used password.'],
    ['the account email', 'marguerite.yourcenar@example.com', null],
  ])('refuses %s at register with 422 at the password and the reason', async (_case, password, warning) => {
    const { response, error } = await register('marguerite.yourcenar@example.com', password);
    expect(response.status).toBe(422);
    expect(error).toEqual({ detail: [{ loc: ['body', 'password'], msg: TOO_EASY, type: 'value_error' }] });
    if (warning)
      expect(error).toEqual({ detail: [expect.objectContaining({ msg: expect.stringContaining(warning) })] });
    const [{ count }] = await sut.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS count FROM users WHERE email = 'marguerite.yourcenar@example.com'`);
    expect(count).toBe(0);
  });

  it('estimates a 128-character password built to be slow to estimate within a second', async () => {
    const started = performance.now();
    const { response } = await register('slow.estimate@example.com', 'p@ssw0rd'.repeat(16));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(response.status).toBe(422);
  });

  it('accepts a long passphrase without any composition rule', async () => {
    const { response } = await register('long.phrase@example.com', 'correct horse battery staple');
    expect(response.status).toBe(200);
  });

  it('refuses a weak password at admin create and admin reset; the old password keeps working', async () => {
    const asAdmin = typedApi(sut, admin);
    const created = await asAdmin.POST('/api/v1/admin/users', {
      body: { email: 'hire@example.com', password: 'qwertyuiop', full_name: 'Hire' },
    });
    expect(created.response.status).toBe(422);
    expect(created.error).toEqual({
      detail: [{ loc: ['body', 'password'], msg: TOO_EASY, type: 'value_error' }],
    });

    const user = await registerUser(sut);
    const reset = await asAdmin.PUT('/api/v1/admin/users/{user_id}', {
      params: { path: { user_id: user.id } },
      body: { password: 'iloveyou', full_name: 'Renamed' },
    });
    expect(reset.response.status).toBe(422);
    expect(reset.error).toEqual({
      detail: [{ loc: ['body', 'password'], msg: TOO_EASY, type: 'value_error' }],
    });
    await expect(login(sut, user.email, user.password)).resolves.toHaveProperty('accessToken');
    const [row] = await sut.app.get(DataSource).query('SELECT full_name FROM users WHERE id = $1', [user.id]);
    expect(row.full_name).toBe(user.fullName);
  });

  it('lets an account whose password predates the rule log in with it', async () => {
    const user = await registerUser(sut);
    const weakHash = await sut.app.get(PasswordHasher).hash('12345678');
    await sut.app
      .get(DataSource)
      .query('UPDATE users SET hashed_password = $1 WHERE id = $2', [weakHash, user.id]);
    await expect(login(sut, user.email, '12345678')).resolves.toHaveProperty('accessToken');
  });
});
