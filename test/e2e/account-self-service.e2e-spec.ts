import { DataSource } from 'typeorm';
import { AlertEvaluatorService } from '../../src/modules/alerts/alert-evaluator.service';
import { createSuperuser, login, registerUser, TestUser } from '../factories/users.factory';
import { httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';
import type { Schemas } from '../../client';
import { asCsv, asForm, Credentials, dataOf, issuesOf, typedApi } from '../support/typed-api';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) SelfServiceTest/1.0';

describe('a user manages their own account', () => {
  let sut: TestApp;
  let base: string;

  beforeAll(async () => {
    sut = await createTestApp({ env: { TRUST_PROXY: '1', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
    base = await sut.listen();
  });
  afterAll(() => sut.close());

  const as = (user: Credentials) => typedApi(sut, user);
  const loginFrom = async (user: TestUser, address: string, userAgent: string) => {
    const answer = await httpCall(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': address,
        'user-agent': userAgent,
      },
      body: new URLSearchParams({ username: user.email, password: user.password }).toString(),
    });
    expect(answer.status).toBe(200);
    const tokens = answer.body as { access_token: string; refresh_token: string };
    return { ...tokens, headers: { authorization: `Bearer ${tokens.access_token}` } };
  };
  const refresh = (refreshToken: string) =>
    typedApi(sut).POST('/api/v1/auth/refresh', { body: { refresh_token: refreshToken }, ...asForm });

  describe('sessions', () => {
    it('lists the live sessions with created, last used, user agent and address, the current one marked', async () => {
      const user = await registerUser(sut);
      const laptop = await loginFrom(user, '198.51.100.10', UA);
      const phone = await loginFrom(user, '198.51.100.11', 'Phone/2.0');
      await as(user).POST('/api/v1/auth/logout');

      const answer = await as(laptop).GET('/api/v1/auth/sessions');
      expect(answer.response.status).toBe(200);
      const sessions = dataOf(answer);
      expect(sessions).toHaveLength(2);
      const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(sessions).toEqual(
        expect.arrayContaining([
          {
            id: expect.stringMatching(/^[0-9a-f-]{36}$/),
            created_at: iso,
            last_used_at: iso,
            user_agent: UA,
            ip_address: '198.51.100.10',
            current: true,
          },
          {
            id: expect.stringMatching(/^[0-9a-f-]{36}$/),
            created_at: iso,
            last_used_at: iso,
            user_agent: 'Phone/2.0',
            ip_address: '198.51.100.11',
            current: false,
          },
        ]),
      );
      const fromPhone = dataOf(await as(phone).GET('/api/v1/auth/sessions'));
      expect(fromPhone.find((session) => session.current)?.ip_address).toBe('198.51.100.11');
    });

    it('moves last used on refresh', async () => {
      const user = await registerUser(sut);
      const [before] = dataOf(await as(user).GET('/api/v1/auth/sessions'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const next = dataOf(await refresh(user.refreshToken));
      const [after] = dataOf(
        await as({ headers: { authorization: `Bearer ${next.access_token}` } }).GET('/api/v1/auth/sessions'),
      );
      expect(after.id).toBe(before.id);
      expect(after.created_at).toBe(before.created_at);
      expect(Date.parse(after.last_used_at)).toBeGreaterThan(Date.parse(before.last_used_at));
    });

    it("ends one of the caller's sessions; another user's or an unknown one is 404", async () => {
      const user = await registerUser(sut);
      const other = await loginFrom(user, '198.51.100.12', 'Other/1.0');
      const stranger = await registerUser(sut);
      const [otherSession] = dataOf(await as(other).GET('/api/v1/auth/sessions')).filter(
        (session) => session.current,
      );

      const endSession = (who: Credentials, sessionId: string) =>
        as(who).DELETE('/api/v1/auth/sessions/{session_id}', { params: { path: { session_id: sessionId } } });
      const me = (who: Credentials) => as(who).GET('/api/v1/auth/me');
      const refused = await endSession(stranger, otherSession.id);
      expect(refused.response.status).toBe(404);
      expect(refused.error).toEqual({ detail: 'Session not found' });
      expect((await me(other)).response.status).toBe(200);

      const ended = await endSession(user, otherSession.id);
      expect(ended.response.status).toBe(200);
      expect(ended.data).toEqual({ message: 'Session revoked' });
      expect((await me(other)).response.status).toBe(401);
      expect((await refresh(other.refresh_token)).response.status).toBe(401);
      expect((await me(user)).response.status).toBe(200);
      expect((await endSession(user, otherSession.id)).response.status).toBe(404);

      const malformed = await endSession(user, 'not-a-session');
      expect(malformed.response.status).toBe(422);
      expect(issuesOf(malformed)[0].loc).toEqual(['path', 'session_id']);
    });
  });

  describe('POST /auth/change-password', () => {
    const changePassword = (user: TestUser, body: Schemas['ChangePasswordDto']) =>
      as(user).POST('/api/v1/auth/change-password', { body });

    it('needs the current password, ends every other session and keeps the current one', async () => {
      const user = await registerUser(sut);
      const elsewhere = await login(sut, user.email, user.password);

      const wrong = await changePassword(user, {
        current_password: 'not my password at all',
        new_password: 'a much better passphrase',
      });
      expect(wrong.response.status).toBe(400);
      expect(wrong.error).toEqual({ detail: 'Incorrect password' });

      const weak = await changePassword(user, {
        current_password: user.password,
        new_password: 'password',
      });
      expect(weak.response.status).toBe(422);
      expect(weak.error).toEqual({
        detail: [
          {
            loc: ['body', 'new_password'],
            msg: expect.stringMatching(/^Value error, Password is too easy to guess\./),
            type: 'value_error',
          },
        ],
      });

      const changed = await changePassword(user, {
        current_password: user.password,
        new_password: 'a much better passphrase',
      });
      expect(changed.response.status).toBe(200);
      expect(changed.data).toEqual({ message: 'Password changed' });
      expect((await as(user).GET('/api/v1/auth/me')).response.status).toBe(200);
      expect((await as(elsewhere).GET('/api/v1/auth/me')).response.status).toBe(401);
      expect((await refresh(elsewhere.refreshToken)).response.status).toBe(401);
      expect((await refresh(user.refreshToken)).response.status).toBe(200);
      await expect(login(sut, user.email, user.password)).rejects.toThrow('login failed: 401');
      await expect(login(sut, user.email, 'a much better passphrase')).resolves.toHaveProperty('accessToken');
    });

    it('counts wrong current passwords toward the failed-login lockout', async () => {
      const user = await registerUser(sut);
      const statuses = [];
      for (let attempt = 0; attempt < 11; attempt += 1) {
        const answer = await changePassword(user, {
          current_password: `guess number ${attempt}`,
          new_password: 'a much better passphrase',
        });
        statuses.push(answer.response.status);
      }
      expect(statuses).toEqual([...Array(10).fill(400), 429]);
    });
  });

  describe('PATCH /users/me', () => {
    const updateMe = (user: TestUser, body: Schemas['UpdateMeDto']) =>
      as(user).PATCH('/api/v1/users/me', { body });

    it('changes the full name without a password', async () => {
      const user = await registerUser(sut);
      const answer = await updateMe(user, { full_name: 'Grace Hopper' });
      expect(answer.response.status).toBe(200);
      expect(answer.data).toEqual({
        id: user.id,
        email: user.email,
        full_name: 'Grace Hopper',
        is_active: true,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(dataOf(await as(user).GET('/api/v1/auth/me')).full_name).toBe('Grace Hopper');
    });

    it('changes the email only with the current password, and refuses one taken by another user', async () => {
      const user = await registerUser(sut);
      const other = await registerUser(sut);
      const newEmail = `moved-${user.id}@example.com`;

      const withoutPassword = await updateMe(user, { email: newEmail });
      expect(withoutPassword.response.status).toBe(422);
      expect(withoutPassword.error).toEqual({
        detail: [{ loc: ['body', 'current_password'], msg: 'Field required', type: 'missing' }],
      });
      const wrongPassword = await updateMe(user, {
        email: newEmail,
        current_password: 'not my password at all',
      });
      expect(wrongPassword.response.status).toBe(400);
      expect(wrongPassword.error).toEqual({ detail: 'Incorrect password' });

      const taken = await updateMe(user, {
        email: other.email.toUpperCase(),
        current_password: user.password,
      });
      expect(taken.response.status).toBe(400);
      expect(taken.error).toEqual({ detail: 'Email already in use by another user' });

      const moved = await updateMe(user, {
        email: newEmail.toUpperCase(),
        current_password: user.password,
      });
      expect(moved.response.status).toBe(200);
      expect(dataOf(moved).email).toBe(newEmail);
      expect(dataOf(await as(user).GET('/api/v1/auth/me')).email).toBe(newEmail);
      await expect(login(sut, newEmail, user.password)).resolves.toHaveProperty('accessToken');
    });

    it('ignores fields that are not the profile’s (no mass assignment)', async () => {
      const user = await registerUser(sut);
      // Raw: a field the profile's type does not have.
      const answer = await sut.inject({
        method: 'PATCH',
        url: '/api/v1/users/me',
        headers: user.headers,
        payload: { full_name: 'Still Plain', is_superuser: true },
      });
      expect(answer.statusCode).toBe(200);
      const [row] = await sut.app
        .get(DataSource)
        .query('SELECT is_superuser FROM users WHERE id = $1', [user.id]);
      expect(row.is_superuser).toBe(false);
    });
  });

  describe('DELETE /users/me', () => {
    const userTables = (dataSource: DataSource): Promise<{ table_name: string }[]> =>
      dataSource.query(
        `SELECT table_name FROM information_schema.columns
         WHERE column_name = 'user_id' AND table_schema = current_schema() ORDER BY table_name`,
      );
    const rowsOf = async (dataSource: DataSource, userId: number) => {
      const counts: Record<string, number> = {};
      for (const { table_name } of await userTables(dataSource)) {
        const [{ count }] = await dataSource.query(
          `SELECT count(*)::int AS count FROM "${table_name}" WHERE user_id = $1`,
          [userId],
        );
        counts[table_name] = count;
      }
      return counts;
    };

    it('with the password, removes the account and every row that is the user’s, in every table', async () => {
      const user = await registerUser(sut);
      const bystander = await registerUser(sut);
      for (const owner of [user, bystander]) {
        const asOwner = as(owner);
        expect(
          (
            await asOwner.POST('/api/v1/preferences/wizard', {
              body: { step_data: { essential: { experience_level: 'beginner' } }, complete: true },
            })
          ).response.status,
        ).toBe(200);
        const trade = await asOwner.POST('/api/v1/portfolio/transactions', {
          params: { header: { 'Idempotency-Key': `trade-${owner.id}` } },
          body: {
            symbol: 'AAPL',
            side: 'buy',
            quantity: 1,
            price: 100,
            executed_at: '2025-01-06T15:30:00Z',
          },
        });
        expect(trade.response.status).toBe(201);
        const edited = await asOwner.PATCH('/api/v1/portfolio/transactions/{id}', {
          params: { path: { id: dataOf(trade).id } },
          body: { quantity: 2 },
        });
        expect(edited.response.status).toBe(200);
        const brokerExport = (symbol: string, dryRun?: true) =>
          asOwner.POST('/api/v1/portfolio/import', {
            body: `date,symbol,side,quantity,price,fees\n2025-01-07,${symbol},buy,1,100,0\n`,
            ...asCsv,
            params: { query: { format: 'native', dry_run: dryRun } },
          });
        expect((await brokerExport('MSFT')).response.status).toBe(201);
        expect((await brokerExport('NVDA', true)).response.status).toBe(200);
        expect(
          (await asOwner.PUT('/api/v1/portfolio/settings', { body: { cost_basis_method: 'fifo' } })).response
            .status,
        ).toBe(200);
        expect(
          (await asOwner.POST('/api/v1/assistant/chat', { body: { message: 'What is my portfolio worth?' } }))
            .response.status,
        ).toBe(200);
        expect(
          (
            await asOwner.PUT('/api/v1/notifications/settings', {
              body: { webhook_url: 'http://127.0.0.1:9/hook' },
            })
          ).response.status,
        ).toBe(200);
        expect(
          (await asOwner.POST('/api/v1/alerts', { body: { kind: 'price_above', symbol: 'AAPL', price: 1 } }))
            .response.status,
        ).toBe(201);
      }
      await sut.app.get(AlertEvaluatorService).evaluate();
      const dataSource = sut.app.get(DataSource);
      const before = await rowsOf(dataSource, user.id);
      const emptyBefore = Object.entries(before)
        .filter(([, count]) => count === 0)
        .map(([table]) => table);
      expect(emptyBefore).toEqual([]);
      expect(Object.keys(before)).toEqual(
        expect.arrayContaining([
          'assistant_conversations',
          'idempotency_keys',
          'portfolio_transactions',
          'refresh_tokens',
          'sessions',
          'user_preferences',
        ]),
      );
      const bystanderBefore = await rowsOf(dataSource, bystander.id);

      const deleteMe = (who: TestUser, password: string) =>
        as(who).DELETE('/api/v1/users/me', { body: { password } });
      const wrong = await deleteMe(user, 'not my password at all');
      expect(wrong.response.status).toBe(400);
      expect(wrong.error).toEqual({ detail: 'Incorrect password' });
      // Raw: a deletion without the password body, which the typed client requires.
      const missing = await sut.inject({ method: 'DELETE', url: '/api/v1/users/me', headers: user.headers });
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toEqual({
        detail: [{ loc: ['body', 'password'], msg: 'Field required', type: 'missing' }],
      });

      const deleted = await deleteMe(user, user.password);
      expect(deleted.response.status).toBe(200);
      expect(deleted.data).toEqual({ message: 'Account deleted' });

      expect(Object.values(await rowsOf(dataSource, user.id)).every((count) => count === 0)).toBe(true);
      const [{ count: users }] = await dataSource.query(
        'SELECT count(*)::int AS count FROM users WHERE id = $1',
        [user.id],
      );
      expect(users).toBe(0);
      expect(await rowsOf(dataSource, bystander.id)).toEqual(bystanderBefore);
      expect((await as(user).GET('/api/v1/auth/me')).response.status).toBe(401);
      expect((await refresh(user.refreshToken)).response.status).toBe(401);
      await expect(login(sut, user.email, user.password)).rejects.toThrow('login failed: 401');
    });

    it('refuses to delete the last active superuser', async () => {
      const admin = await createSuperuser(sut);
      const [{ count }] = await sut.app
        .get(DataSource)
        .query('SELECT count(*)::int AS count FROM users WHERE is_superuser AND is_active');
      expect(count).toBe(1);
      const answer = await as(admin).DELETE('/api/v1/users/me', {
        body: { password: admin.password },
      });
      expect(answer.response.status).toBe(400);
      expect(answer.error).toEqual({ detail: 'Cannot delete the last active superuser' });
      expect((await as(admin).GET('/api/v1/auth/me')).response.status).toBe(200);
    });
  });
});
