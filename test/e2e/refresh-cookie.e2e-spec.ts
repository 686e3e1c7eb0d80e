import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { asForm, dataOf, typedApi } from '../support/typed-api';

const ALLOWED = 'https://app.example.com';
const COOKIE =
  /^refresh_token=([^;]+); Max-Age=604800; Path=\/api\/v1\/auth; HttpOnly; Secure; SameSite=Strict$/;

/**
 * A refresh from the cookie alone has no body, which the document's types (`refresh_token` required)
 * do not allow: those requests stay raw `inject()`.
 */
describe('AUTH_REFRESH_COOKIE=true: the refresh token as an HttpOnly cookie', () => {
  let sut: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    sut = await createTestApp({ env: { AUTH_REFRESH_COOKIE: 'true', CORS_ORIGINS: ALLOWED } });
    user = await registerUser(sut);
  });
  afterAll(() => sut.close());

  const login = async () => {
    const answer = await typedApi(sut).POST('/api/v1/auth/login', {
      body: { username: user.email, password: user.password },
      ...asForm,
    });
    expect(answer.response.status).toBe(200);
    return { setCookie: answer.response.headers.get('set-cookie'), tokens: dataOf(answer) };
  };
  const cookieIn = (setCookie: unknown) => COOKIE.exec(String(setCookie))?.[1];
  const refreshWithCookie = (token: string, origin?: string) =>
    sut.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { cookie: `theme=dark; refresh_token=${token}`, ...(origin ? { origin } : {}) },
    });

  it('sets the cookie on login, holding the refresh token of the answer', async () => {
    const { setCookie, tokens } = await login();
    expect(setCookie).toMatch(COOKIE);
    expect(cookieIn(setCookie)).toBe(tokens.refresh_token);
  });

  it('refreshes from the cookie alone for a page on an allowed origin, and rotates the cookie', async () => {
    const first = cookieIn((await login()).setCookie)!;
    const refreshed = await refreshWithCookie(first, ALLOWED);
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.headers['cache-control']).toBe('no-store');
    const second = cookieIn(refreshed.headers['set-cookie'])!;
    expect(second).toBe(refreshed.json().refresh_token);
    expect(second).not.toBe(first);
    const me = await typedApi(sut).GET('/api/v1/auth/me', {
      headers: { authorization: `Bearer ${refreshed.json().access_token}` },
    });
    expect(me.data?.email).toBe(user.email);
  });

  it('refuses the cookie from another origin or without one (401), and leaves the session usable', async () => {
    const token = cookieIn((await login()).setCookie)!;
    for (const origin of ['https://evil.example.com', 'https://other.app.example.com', undefined]) {
      const refused = await refreshWithCookie(token, origin);
      expect({ origin, status: refused.statusCode, body: refused.json() }).toEqual({
        origin,
        status: 401,
        body: { detail: 'Invalid refresh token' },
      });
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
    expect((await refreshWithCookie(token, ALLOWED)).statusCode).toBe(200);
  });

  it('prefers a refresh token in the body, as before', async () => {
    const { tokens } = await login();
    const refreshed = await typedApi(sut).POST('/api/v1/auth/refresh', {
      body: { refresh_token: tokens.refresh_token },
      ...asForm,
      headers: { ...asForm.headers, cookie: 'refresh_token=not-a-token', origin: 'https://evil.example.com' },
    });
    expect(refreshed.response.status).toBe(200);
  });

  it('answers 422 as before when there is neither a body token nor a cookie', async () => {
    const response = await sut.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { origin: ALLOWED },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0]).toMatchObject({ loc: ['body', 'refresh_token'], type: 'missing' });
  });

  it('clears the cookie on logout', async () => {
    const { tokens } = await login();
    const { response } = await typedApi(sut).POST('/api/v1/auth/logout', {
      body: {},
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBe(
      'refresh_token=; Max-Age=0; Path=/api/v1/auth; HttpOnly; Secure; SameSite=Strict',
    );
  });
});

describe('AUTH_REFRESH_COOKIE unset (the default)', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ env: { CORS_ORIGINS: ALLOWED } });
  });
  afterAll(() => sut.close());

  it('sets no cookie and reads none', async () => {
    const user = await registerUser(sut);
    const login = await typedApi(sut).POST('/api/v1/auth/login', {
      body: { username: user.email, password: user.password },
      ...asForm,
    });
    expect(login.response.headers.get('set-cookie')).toBeNull();
    const refresh = await sut.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { cookie: `refresh_token=${login.data?.refresh_token}`, origin: ALLOWED },
    });
    expect(refresh.statusCode).toBe(422);
  });
});
