import { DataSource } from 'typeorm';
import { registerUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { FakeClock } from '../fakes/clock';
import { asForm, typedApi } from '../support/typed-api';

const login = (sut: TestApp, username: string, password: string) =>
  typedApi(sut).POST('/api/v1/auth/login', { body: { username, password }, ...asForm });

describe('failed-login lockout', () => {
  const clock = new FakeClock();
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  it('lets at most 10 of 20 parallel wrong guesses through; the rest get 429', async () => {
    const user = await registerUser(sut);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => login(sut, user.email, 'guess-guess')),
    );
    const statuses = answers.map((answer) => answer.response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });

  it('opens again when the 15-minute window has passed', async () => {
    const user = await registerUser(sut);
    for (let attempt = 0; attempt < 10; attempt += 1) await login(sut, user.email, 'guess-guess');
    expect((await login(sut, user.email, user.password)).response.status).toBe(429);
    clock.advance(14 * 60 * 1000);
    const stillLocked = await login(sut, user.email, user.password);
    expect(stillLocked.response.status).toBe(429);
    expect(Number(stillLocked.response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    clock.advance(60 * 1000);
    expect((await login(sut, user.email, user.password)).response.status).toBe(200);
  });

  it('does not count successes: 9 failures, a success, then one more failure stay under the limit', async () => {
    const user = await registerUser(sut);
    for (let attempt = 0; attempt < 9; attempt += 1) await login(sut, user.email, 'guess-guess');
    expect((await login(sut, user.email, user.password)).response.status).toBe(200);
    expect((await login(sut, user.email, 'guess-guess')).response.status).toBe(401);
    expect((await login(sut, user.email, user.password)).response.status).toBe(429);
    const [row] = await sut.app
      .get(DataSource)
      .query('SELECT failures FROM login_attempts WHERE email = $1', [user.email]);
    expect(row.failures).toBeGreaterThanOrEqual(10);
  });
});
