import { JwtService } from '@nestjs/jwt';
import { DataSource } from 'typeorm';
import { login, registerUser } from '../factories/users.factory';
import { createTestApp, TEST_SECRET_KEY, TestApp } from '../setup/test-app';
import { asForm, typedApi } from '../support/typed-api';
import type { ApiClient } from '../../client';

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

describe('accounts and tokens (spec 4.1, 5)', () => {
  let sut: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    // Strict rotation here; the reuse grace window is covered by the concurrency suite.
    sut = await createTestApp({ env: { REFRESH_REUSE_GRACE_SECONDS: '0' } });
    api = typedApi(sut);
  });
  afterAll(() => sut.close());

  describe('POST /api/v1/users/register', () => {
    it('returns 200 with the User, email lower-cased, updated_at null, no password', async () => {
      const { response, data: body } = await api.POST('/api/v1/users/register', {
        body: {
          email: 'Ada.Lovelace@Example.com',
          password: 'analytical engine',
          full_name: 'Ada Lovelace',
        },
      });
      expect(response.status).toBe(200);
      expect(body).toEqual({
        id: expect.any(Number),
        email: 'ada.lovelace@example.com',
        full_name: 'Ada Lovelace',
        is_active: true,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        updated_at: null,
      });
      const [row] = await sut.app
        .get(DataSource)
        .query('SELECT hashed_password FROM users WHERE id = $1', [body?.id]);
      expect(row.hashed_password).toMatch(/^\$argon2id\$/);
    });

    it('refuses an email already registered, whatever its case', async () => {
      await registerUser(sut, { email: 'taken@example.com' });
      const { response, error } = await api.POST('/api/v1/users/register', {
        body: { email: 'TAKEN@example.com', password: 'another password', full_name: 'Someone' },
      });
      expect(response.status).toBe(400);
      expect(error).toEqual({ detail: 'Email already registered' });
    });

    it('gives exactly one 200 among 20 concurrent registrations of one email, the rest 400', async () => {
      const attempts = await Promise.all(
        Array.from({ length: 20 }, () =>
          api.POST('/api/v1/users/register', {
            body: { email: 'race@example.com', password: 'plenty long passphrase', full_name: 'Racer' },
          }),
        ),
      );
      const statuses = attempts.map((attempt) => attempt.response.status).sort();
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 400)).toHaveLength(19);
      const [{ count }] = await sut.app
        .get(DataSource)
        .query(`SELECT count(*)::int AS count FROM users WHERE email = 'race@example.com'`);
      expect(count).toBe(1);
    });

    it.each([
      [{ password: 'plenty long passphrase', full_name: 'X' }, ['body', 'email'], 'missing'],
      [
        { email: 'not-an-email', password: 'plenty long passphrase', full_name: 'X' },
        ['body', 'email'],
        'value_error',
      ],
      [
        { email: 'short@example.com', password: 'short', full_name: 'X' },
        ['body', 'password'],
        'string_too_short',
      ],
      [
        { email: 'long@example.com', password: 'x'.repeat(129), full_name: 'X' },
        ['body', 'password'],
        'string_too_long',
      ],
      [
        { email: 'type@example.com', password: 12345678, full_name: 'X' },
        ['body', 'password'],
        'string_type',
      ],
      [{ email: 'name@example.com', password: 'plenty long passphrase' }, ['body', 'full_name'], 'missing'],
    ])('answers 422 for %j at %j', async (payload, loc, type) => {
      // Missing fields and wrong types: bodies the typed client refuses to build.
      const response = await sut.inject({ method: 'POST', url: '/api/v1/users/register', payload });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toEqual(
        expect.arrayContaining([expect.objectContaining({ loc, type })]),
      );
    });

    it('answers 422 json_invalid for malformed JSON', async () => {
      const response = await sut.inject({
        method: 'POST',
        url: '/api/v1/users/register',
        payload: '{"email": ',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 0] });
    });

    it('answers 413 with the error shape for a body over 1 MB', async () => {
      const { response, error } = await api.POST('/api/v1/users/register', {
        body: {
          email: 'big@example.com',
          password: 'plenty long passphrase',
          full_name: 'x'.repeat(1024 * 1024 + 10),
        },
      });
      expect(response.status).toBe(413);
      expect(error).toEqual({ detail: 'Request body too large' });
    });
  });

  describe('POST /api/v1/auth/login', () => {
    it('returns a bearer TokenPair for form credentials with the documented claims', async () => {
      const user = await registerUser(sut);
      const { response, data: pair } = await api.POST('/api/v1/auth/login', {
        body: { username: user.email, password: user.password },
        ...asForm,
      });
      expect(response.status).toBe(200);
      if (!pair) throw new Error('login failed');
      expect(pair).toEqual({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'bearer',
      });
      const jwt = new JwtService();
      const access = jwt.decode(pair.access_token);
      const refresh = jwt.decode(pair.refresh_token);
      expect(access).toMatchObject({
        sub: String(user.id),
        type: 'access',
        sid: expect.any(String),
        jti: expect.any(String),
      });
      expect(refresh).toMatchObject({ sub: String(user.id), type: 'refresh', sid: access.sid });
      expect(access.exp - access.iat).toBe(30 * 60);
      expect(refresh.exp - refresh.iat).toBe(7 * 24 * 60 * 60);
    });

    it('also accepts JSON with the same fields', async () => {
      const user = await registerUser(sut);
      const { response } = await api.POST('/api/v1/auth/login', {
        body: { username: user.email.toUpperCase(), password: user.password },
      });
      expect(response.status).toBe(200);
    });

    it('answers 401 for a wrong password and for an unknown email alike', async () => {
      const user = await registerUser(sut);
      for (const fields of [
        { username: user.email, password: 'wrong password' },
        { username: 'nobody@example.com', password: 'whatever123' },
      ]) {
        const { response, error } = await api.POST('/api/v1/auth/login', { body: fields, ...asForm });
        expect(response.status).toBe(401);
        expect(error).toEqual({ detail: 'Incorrect username or password' });
      }
    });

    it('answers 422 when a field is missing', async () => {
      // A missing field: a body the typed client refuses to build.
      const response = await sut.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        ...form({ username: 'a@b.co' }),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toEqual([
        { loc: ['body', 'password'], msg: 'Field required', type: 'missing' },
      ]);
    });

    it('locks out after 10 failures for one email from one IP with 429 and Retry-After', async () => {
      const user = await registerUser(sut);
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const failure = await api.POST('/api/v1/auth/login', {
          body: { username: user.email, password: 'nope-nope' },
          ...asForm,
        });
        expect(failure.response.status).toBe(401);
      }
      const locked = await api.POST('/api/v1/auth/login', {
        body: { username: user.email, password: user.password },
        ...asForm,
      });
      expect(locked.response.status).toBe(429);
      expect(locked.error).toEqual({ detail: 'Too many failed login attempts, try again later' });
      expect(Number(locked.response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(locked.response.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    });

    it('never counts successful logins toward the lockout', async () => {
      const user = await registerUser(sut);
      for (let attempt = 0; attempt < 12; attempt += 1) {
        const success = await api.POST('/api/v1/auth/login', {
          body: { username: user.email, password: user.password },
          ...asForm,
        });
        expect(success.response.status).toBe(200);
      }
    });
  });

  describe('bearer tokens', () => {
    it('GET /auth/me returns the caller', async () => {
      const user = await registerUser(sut);
      const { response, data } = await api.GET('/api/v1/auth/me', { headers: user.headers });
      expect(response.status).toBe(200);
      expect(data).toMatchObject({
        id: user.id,
        email: user.email,
        full_name: user.fullName,
        is_active: true,
      });
      expect(data).not.toHaveProperty('hashed_password');
    });

    it.each([
      ['no header', {}],
      ['a malformed token', { authorization: 'Bearer not.a.jwt' }],
      ['another scheme', { authorization: 'Basic abc' }],
    ])('answers 401 for %s', async (_case, headers) => {
      const { response, error } = await api.GET('/api/v1/auth/me', { headers });
      expect(response.status).toBe(401);
      expect(error).toEqual({ detail: 'Could not validate credentials' });
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('rejects a refresh token used as an access token, and the reverse', async () => {
      const user = await registerUser(sut);
      const asAccess = await api.GET('/api/v1/auth/me', {
        headers: { authorization: `Bearer ${user.refreshToken}` },
      });
      expect(asAccess.response.status).toBe(401);
      const asRefresh = await api.POST('/api/v1/auth/refresh', {
        body: { refresh_token: user.accessToken },
        ...asForm,
      });
      expect(asRefresh.response.status).toBe(401);
      expect(asRefresh.error).toEqual({ detail: 'Invalid refresh token' });
    });

    it('rejects alg none, other algorithms, other keys and expired tokens', async () => {
      const user = await registerUser(sut);
      const claims = new JwtService().decode(user.accessToken);
      const { iat: _iat, exp: _exp, ...rest } = claims;
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const unsigned = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
      const jwt = new JwtService();
      const tokens = [
        unsigned,
        jwt.sign(rest, { secret: TEST_SECRET_KEY, algorithm: 'HS512', expiresIn: 600 }),
        jwt.sign(rest, {
          secret: 'another-secret-key-of-enough-length-000000',
          algorithm: 'HS256',
          expiresIn: 600,
        }),
        jwt.sign(
          { ...rest, exp: Math.floor(Date.now() / 1000) - 10 },
          { secret: TEST_SECRET_KEY, algorithm: 'HS256' },
        ),
      ];
      for (const token of tokens) {
        const { response } = await api.GET('/api/v1/auth/me', {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.status).toBe(401);
      }
      const valid = jwt.sign(rest, { secret: TEST_SECRET_KEY, algorithm: 'HS256', expiresIn: 600 });
      const { response } = await api.GET('/api/v1/auth/me', {
        headers: { authorization: `Bearer ${valid}` },
      });
      expect(response.status).toBe(200);
    });
  });

  describe('refresh, logout and logout-all', () => {
    const meStatus = async (headers: Record<string, string>) =>
      (await api.GET('/api/v1/auth/me', { headers })).response.status;

    it('rotates: a new pair works, the presented refresh token is spent', async () => {
      const user = await registerUser(sut);
      const refreshed = await api.POST('/api/v1/auth/refresh', {
        body: { refresh_token: user.refreshToken },
        ...asForm,
      });
      expect(refreshed.response.status).toBe(200);
      const pair = refreshed.data;
      if (!pair) throw new Error('refresh failed');
      expect(pair.token_type).toBe('bearer');
      expect(pair.refresh_token).not.toBe(user.refreshToken);
      const me = await api.GET('/api/v1/auth/me', {
        headers: { authorization: `Bearer ${pair.access_token}` },
      });
      expect(me.response.status).toBe(200);
      const again = await api.POST('/api/v1/auth/refresh', { body: { refresh_token: pair.refresh_token } });
      expect(again.response.status).toBe(200);
    });

    it('treats reuse of a rotated refresh token as theft and revokes the whole session', async () => {
      const user = await registerUser(sut);
      const { data: first } = await api.POST('/api/v1/auth/refresh', {
        body: { refresh_token: user.refreshToken },
        ...asForm,
      });
      if (!first) throw new Error('refresh failed');
      const reuse = await api.POST('/api/v1/auth/refresh', {
        body: { refresh_token: user.refreshToken },
        ...asForm,
      });
      expect(reuse.response.status).toBe(401);
      expect(reuse.error).toEqual({ detail: 'Invalid refresh token' });
      const descendant = await api.POST('/api/v1/auth/refresh', {
        body: { refresh_token: first.refresh_token },
        ...asForm,
      });
      expect(descendant.response.status).toBe(401);
      const me = await api.GET('/api/v1/auth/me', {
        headers: { authorization: `Bearer ${first.access_token}` },
      });
      expect(me.response.status).toBe(401);
    });

    it('answers 401 for garbage and 422 for a missing refresh_token', async () => {
      const garbage = await api.POST('/api/v1/auth/refresh', {
        body: { refresh_token: 'garbage' },
        ...asForm,
      });
      expect(garbage.response.status).toBe(401);
      // A missing field: a body the typed client refuses to build.
      const missing = await sut.inject({ method: 'POST', url: '/api/v1/auth/refresh', ...form({}) });
      expect(missing.statusCode).toBe(422);
    });

    it('logout revokes the calling session only', async () => {
      const user = await registerUser(sut);
      const other = await login(sut, user.email, user.password);
      const { response, data } = await api.POST('/api/v1/auth/logout', { headers: user.headers });
      expect(response.status).toBe(200);
      expect(data).toEqual({ message: expect.any(String) });
      expect(await meStatus(user.headers)).toBe(401);
      const refresh = await api.POST('/api/v1/auth/refresh', {
        body: { refresh_token: user.refreshToken },
        ...asForm,
      });
      expect(refresh.response.status).toBe(401);
      expect(await meStatus(other.headers)).toBe(200);
    });

    it("logout also revokes a given refresh token's session when it is the caller's, not someone else's", async () => {
      const user = await registerUser(sut);
      const second = await login(sut, user.email, user.password);
      const stranger = await registerUser(sut);
      const { response } = await api.POST('/api/v1/auth/logout', {
        body: { refresh_token: second.refreshToken },
        headers: user.headers,
      });
      expect(response.status).toBe(200);
      expect(await meStatus(second.headers)).toBe(401);
      await api.POST('/api/v1/auth/logout', {
        body: { refresh_token: stranger.refreshToken },
        headers: second.headers,
      });
      expect(await meStatus(stranger.headers)).toBe(200);
    });

    it('logout-all revokes every session of the user and no one else', async () => {
      const user = await registerUser(sut);
      const second = await login(sut, user.email, user.password);
      const bystander = await registerUser(sut);
      const { response } = await api.POST('/api/v1/auth/logout-all', { headers: user.headers });
      expect(response.status).toBe(200);
      for (const headers of [user.headers, second.headers]) {
        expect(await meStatus(headers)).toBe(401);
      }
      const refresh = await api.POST('/api/v1/auth/refresh', {
        body: { refresh_token: second.refreshToken },
        ...asForm,
      });
      expect(refresh.response.status).toBe(401);
      expect(await meStatus(bystander.headers)).toBe(200);
    });

    it('logout and logout-all need a token', async () => {
      for (const { response, error } of [
        await api.POST('/api/v1/auth/logout'),
        await api.POST('/api/v1/auth/logout-all'),
      ]) {
        expect(response.status).toBe(401);
        expect(error).toEqual({ detail: 'Could not validate credentials' });
      }
    });
  });

  it('answers unknown routes with 404 Not Found', async () => {
    // A path outside the document: the typed client has no name for it.
    const response = await sut.inject({ url: '/api/v1/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found' });
  });
});

describe('client address behind proxies', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY says whom to trust, so the lockout cannot be dodged', async () => {
    const sut = await createTestApp();
    try {
      const user = await registerUser(sut);
      const api = typedApi(sut);
      const loginFrom = (address: string, password: string) =>
        api.POST('/api/v1/auth/login', {
          body: { username: user.email, password },
          ...asForm,
          headers: { ...asForm.headers, 'x-forwarded-for': address },
        });
      for (let attempt = 0; attempt < 10; attempt += 1) {
        await loginFrom(`198.51.100.${attempt}`, 'wrong-password');
      }
      const locked = await loginFrom('203.0.113.7', user.password);
      expect(locked.response.status).toBe(429);
    } finally {
      await sut.close();
    }
  });
});
