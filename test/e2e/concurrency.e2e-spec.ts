import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createSuperuser, login, registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { HttpAnswer, HttpCallOptions, httpCall } from '../setup/http-call';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { TcpProxy } from '../support/tcp-proxy';
import { asForm, typedApi } from '../support/typed-api';

/** The parts these tests assert: a hang fails inside httpCall (ANSWER_WITHIN_MS), not as a Jest timeout. */
async function call(
  baseUrl: string,
  path: string,
  options: HttpCallOptions = {},
): Promise<Pick<HttpAnswer, 'status' | 'body'>> {
  const { status, body } = await httpCall(`${baseUrl}${path}`, options);
  return { status, body };
}

const refreshWith = (baseUrl: string, refreshToken: string) =>
  call(baseUrl, '/api/v1/auth/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ refresh_token: refreshToken }).toString(),
  });

const statuses = (answers: Pick<HttpAnswer, 'status'>[]) => answers.map((answer) => answer.status).sort();

describe('concurrent requests over real HTTP', () => {
  describe('refresh without a reuse grace window', () => {
    let sut: TestApp;
    let baseUrl: string;

    beforeAll(async () => {
      sut = await createTestApp({ env: { REFRESH_REUSE_GRACE_SECONDS: '0' } });
      baseUrl = await sut.listen();
    });
    afterAll(() => sut.close());

    it('ten concurrent refreshes of one token: one 200, nine 401, and the session is revoked', async () => {
      const user: TestUser = await registerUser(sut);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => refreshWith(baseUrl, user.refreshToken)),
      );
      expect(statuses(answers)).toEqual([200, ...Array(9).fill(401)]);
      for (const answer of answers.filter(({ status }) => status === 401)) {
        expect(answer.body).toEqual({ detail: 'Invalid refresh token' });
      }
      const [session] = await sut.app
        .get(DataSource)
        .query('SELECT revoked_at FROM sessions WHERE user_id = $1', [user.id]);
      expect(session.revoked_at).not.toBeNull();
    });

    it('keeps answering every kind of request while many run at once', async () => {
      const users = await Promise.all(Array.from({ length: 4 }, () => registerUser(sut)));
      const answers = await Promise.all(
        users.flatMap((user) => [
          call(baseUrl, '/api/v1/auth/me', { headers: user.headers }),
          call(baseUrl, '/api/v1/preferences/', {
            method: 'POST',
            headers: { ...user.headers, 'content-type': 'application/json' },
            body: JSON.stringify({ experience_level: 'beginner', risk_tolerance: 'moderate' }),
          }),
          call(baseUrl, '/api/v1/portfolio/transactions', {
            method: 'POST',
            headers: { ...user.headers, 'content-type': 'application/json' },
            body: JSON.stringify({
              symbol: 'AAPL',
              side: 'buy',
              quantity: 1,
              price: 100,
              executed_at: '2024-01-02T15:00:00Z',
            }),
          }),
          refreshWith(baseUrl, user.refreshToken),
        ]),
      );
      expect(answers.filter(({ status }) => status >= 500)).toEqual([]);
      expect(statuses(answers)).toEqual([...Array(8).fill(200), ...Array(8).fill(201)].sort());
    });
  });

  describe('one-of-a-kind records created at once', () => {
    let sut: TestApp;
    let baseUrl: string;

    beforeAll(async () => {
      sut = await createTestApp();
      baseUrl = await sut.listen();
    });
    afterAll(() => sut.close());

    const postJson = (path: string, body: object, headers: Record<string, string> = {}) =>
      call(baseUrl, path, { method: 'POST', headers, body });

    it('20 concurrent registrations of one email: one 200, nineteen 400, one stored account', async () => {
      const email = `race-${randomUUID()}@example.com`;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          postJson('/api/v1/users/register', {
            email: index % 2 ? email.toUpperCase() : email,
            password: 'a long enough password',
            full_name: 'Racer',
          }),
        ),
      );
      expect(statuses(answers)).toEqual([200, ...Array(19).fill(400)]);
      expect(answers.filter(({ status }) => status === 400).map(({ body }) => body)).toEqual(
        Array(19).fill({ detail: 'Email already registered' }),
      );
      const [{ count }] = await sut.app
        .get(DataSource)
        .query('SELECT count(*)::int AS count FROM users WHERE email = $1', [email]);
      expect(count).toBe(1);
    });

    it('10 concurrent preference creations: one 201, nine 409, one stored record', async () => {
      const user = await registerUser(sut);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          postJson('/api/v1/preferences/', { experience_level: 'intermediate' }, user.headers),
        ),
      );
      expect(statuses(answers)).toEqual([201, ...Array(9).fill(409)]);
      const [{ count }] = await sut.app
        .get(DataSource)
        .query('SELECT count(*)::int AS count FROM user_preferences WHERE user_id = $1', [user.id]);
      expect(count).toBe(1);
    });

    it('10 concurrent wizard calls: all 200, one stored record holding one of the submitted levels', async () => {
      const user = await registerUser(sut);
      const levels = ['beginner', 'intermediate', 'advanced'];
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          postJson(
            '/api/v1/preferences/wizard',
            { step_data: { essential: { experience_level: levels[index % 3] } }, complete: index % 2 === 0 },
            user.headers,
          ),
        ),
      );
      expect(statuses(answers)).toEqual(Array(10).fill(200));
      const rows = await sut.app
        .get(DataSource)
        .query('SELECT experience_level FROM user_preferences WHERE user_id = $1', [user.id]);
      expect(rows).toHaveLength(1);
      expect(levels).toContain(rows[0].experience_level);
      const stored = await call(baseUrl, '/api/v1/preferences/', { headers: user.headers });
      expect(stored.status).toBe(200);
    });
    it('8 concurrent turns in one assistant conversation: all 200, every message stored once, in order', async () => {
      const user = await registerUser(sut);
      const first = await postJson('/api/v1/assistant/chat', { message: 'help' }, user.headers);
      expect(first.status).toBe(200);
      const { conversation_id } = first.body as { conversation_id: string };
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          postJson('/api/v1/assistant/chat', { message: `help ${index}`, conversation_id }, user.headers),
        ),
      );
      expect(statuses(answers)).toEqual(Array(8).fill(200));
      const stored = await call(baseUrl, `/api/v1/assistant/conversations/${conversation_id}`, {
        headers: user.headers,
      });
      const messages = (stored.body as { messages: { role: string; content: string }[] }).messages;
      expect(messages).toHaveLength(18);
      expect(messages.map((message) => message.role)).toEqual(
        Array.from({ length: 9 }, () => ['user', 'assistant']).flat(),
      );
      const questions = messages
        .filter((message) => message.role === 'user')
        .map((message) => message.content);
      expect(questions.sort()).toEqual(
        ['help', ...Array.from({ length: 8 }, (_, index) => `help ${index}`)].sort(),
      );
    });
  });

  describe('refresh within the reuse grace window', () => {
    let sut: TestApp;
    let baseUrl: string;

    beforeAll(async () => {
      sut = await createTestApp({ env: { REFRESH_REUSE_GRACE_SECONDS: '5' } });
      baseUrl = await sut.listen();
    });
    afterAll(() => sut.close());

    it('two tabs refreshing at once both get the same new pair, and the session lives on', async () => {
      const user = await registerUser(sut);
      const answers = await Promise.all([
        refreshWith(baseUrl, user.refreshToken),
        refreshWith(baseUrl, user.refreshToken),
      ]);
      expect(statuses(answers)).toEqual([200, 200]);
      expect(answers[0].body).toEqual(answers[1].body);
      const pair = answers[0].body as { access_token: string; refresh_token: string };
      const me = await call(baseUrl, '/api/v1/auth/me', {
        headers: { authorization: `Bearer ${pair.access_token}` },
      });
      expect(me.status).toBe(200);
      expect((await refreshWith(baseUrl, pair.refresh_token)).status).toBe(200);
    });

    it('a rotated token presented after its successor was used is still reuse: the session is revoked', async () => {
      const user = await registerUser(sut);
      const first = (await refreshWith(baseUrl, user.refreshToken)).body as { refresh_token: string };
      const second = await refreshWith(baseUrl, first.refresh_token);
      expect(second.status).toBe(200);
      expect(await refreshWith(baseUrl, user.refreshToken)).toEqual({
        status: 401,
        body: { detail: 'Invalid refresh token' },
      });
      const latest = second.body as { refresh_token: string };
      expect((await refreshWith(baseUrl, latest.refresh_token)).status).toBe(401);
    });
  });

  describe('credentials changes end sessions', () => {
    let sut: TestApp;
    let baseUrl: string;
    let admin: TestUser;

    beforeAll(async () => {
      sut = await createTestApp();
      baseUrl = await sut.listen();
      admin = await createSuperuser(sut);
    });
    afterAll(() => sut.close());

    const adminCall = (method: HttpCallOptions['method'], path: string, body?: object) =>
      call(baseUrl, path, { method, headers: admin.headers, body });

    it('a password reset by an admin revokes the old access and refresh tokens', async () => {
      const user = await registerUser(sut);
      expect((await call(baseUrl, '/api/v1/auth/me', { headers: user.headers })).status).toBe(200);
      expect(
        (await adminCall('PUT', `/api/v1/admin/users/${user.id}`, { password: 'a brand new secret' })).status,
      ).toBe(200);
      expect(await call(baseUrl, '/api/v1/auth/me', { headers: user.headers })).toEqual({
        status: 401,
        body: { detail: 'Could not validate credentials' },
      });
      expect((await refreshWith(baseUrl, user.refreshToken)).status).toBe(401);
    });

    it('deactivation revokes every session: the old tokens stay dead after re-activation', async () => {
      const user = await registerUser(sut);
      expect((await adminCall('PATCH', `/api/v1/admin/users/${user.id}/deactivate`)).status).toBe(200);
      expect((await adminCall('PATCH', `/api/v1/admin/users/${user.id}/activate`)).status).toBe(200);
      expect((await call(baseUrl, '/api/v1/auth/me', { headers: user.headers })).status).toBe(401);
      expect((await refreshWith(baseUrl, user.refreshToken)).status).toBe(401);
    });
  });

  describe('emails are one account whatever their Unicode form', () => {
    let sut: TestApp;

    beforeAll(async () => {
      sut = await createTestApp();
    });
    afterAll(() => sut.close());

    it('refuses the NFD form of an NFC-registered email and logs in with either form', async () => {
      const composed = `jos\u00e9-${randomUUID().slice(0, 8)}@example.com`;
      const decomposed = composed.normalize('NFD');
      expect(decomposed).not.toBe(composed);
      await registerUser(sut, { email: composed, password: 'a long enough password' });
      const api = typedApi(sut);
      const second = await api.POST('/api/v1/users/register', {
        body: { email: decomposed, password: 'a long enough password', full_name: 'Jose' },
      });
      expect(second.response.status).toBe(400);
      expect(second.error).toEqual({ detail: 'Email already registered' });
      const login = await api.POST('/api/v1/auth/login', {
        body: { username: decomposed, password: 'a long enough password' },
        ...asForm,
      });
      expect(login.response.status).toBe(200);
    });
  });

  // Two instances share one PostgreSQL and one Redis, as behind a load balancer. The slow one is a
  // process of its own whose database replies the proxy can hold.
  const describeTwoInstances = process.env.TEST_DATABASE_KIND === 'postgres' ? describe : describe.skip;
  describeTwoInstances('two instances on PostgreSQL + Redis', () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let slow: ServiceProcess;
    let fast: TestApp;
    let slowUrl: string;
    let fastUrl: string;

    beforeAll(async () => {
      database = await createTestDatabase();
      const proxied = await TcpProxy.inFrontOf(database.env.DATABASE_URL);
      proxy = proxied.proxy;
      const namespace = `test-${randomUUID()}`;
      fast = await createTestApp({ database, env: { CACHE_NAMESPACE: namespace } });
      fastUrl = await fast.listen();
      slow = await startServiceProcess({
        ...database.env,
        DATABASE_URL: proxied.url,
        REDIS_URL: process.env.TEST_REDIS_URL ?? '',
        CACHE_NAMESPACE: namespace,
      });
      slowUrl = slow.url;
    }, 90_000);
    afterAll(async () => {
      await slow?.stop();
      await fast?.close();
      await proxy?.close();
      await database?.drop();
    });

    it('a logout landing while the other instance fills its cache wins: the token is dead on both', async () => {
      const user = await registerUser(fast);
      const racingSession = await login(fast, user.email, user.password);
      // Caches the user's state on the slow instance, so the request below reads only its session from the database.
      expect((await call(slowUrl, '/api/v1/auth/me', { headers: user.headers })).status).toBe(200);
      const held = proxy.hold();
      const filling = call(slowUrl, '/api/v1/auth/me', { headers: racingSession.headers });
      await held.clientWrote;
      expect(
        (await call(fastUrl, '/api/v1/auth/logout', { method: 'POST', headers: racingSession.headers }))
          .status,
      ).toBe(200);
      held.release();
      await filling;
      for (const url of [slowUrl, fastUrl]) {
        expect(await call(url, '/api/v1/auth/me', { headers: racingSession.headers })).toEqual({
          status: 401,
          body: { detail: 'Could not validate credentials' },
        });
      }
    });

    it("a demotion racing the user's requests takes effect on both instances at once", async () => {
      const admin = await createSuperuser(fast);
      const target = await createSuperuser(fast);
      const adminPut = (body: unknown) =>
        call(fastUrl, `/api/v1/admin/users/${target.id}`, {
          method: 'PUT',
          headers: { ...admin.headers, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await call(slowUrl, '/api/v1/admin/users/', { headers: target.headers })).status).toBe(200);
      // A harmless change empties the cached user state, so the racing request below refills it.
      expect((await adminPut({ full_name: 'About To Be Demoted' })).status).toBe(200);
      const held = proxy.hold();
      const racing = call(slowUrl, '/api/v1/admin/users/', { headers: target.headers });
      await held.clientWrote;
      expect((await adminPut({ is_superuser: false })).status).toBe(200);
      held.release();
      await racing;
      for (const url of [slowUrl, fastUrl]) {
        expect(await call(url, '/api/v1/admin/users/', { headers: target.headers })).toEqual({
          status: 403,
          body: { detail: 'Forbidden - Admin access required' },
        });
      }
    });
  });
});
