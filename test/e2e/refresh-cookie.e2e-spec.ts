import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';

const ALLOWED = 'https://app.example.com';
const COOKIE =
  /^refresh_token=([^;]+); Max-Age=604800; Path=\/api\/v1\/auth; HttpOnly; Secure; SameSite=Strict$/;

const form = (body: Record<string, string>) => ({
  payload: new URLSearchParams(body).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

describe('AUTH_REFRESH_COOKIE=true: the refresh token as an HttpOnly cookie', () => {
  let sut: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    sut = await createTestApp({ env: { AUTH_REFRESH_COOKIE: 'true', CORS_ORIGINS: ALLOWED } });
    user = await registerUser(sut);
  });
  afterAll(() => sut.close());

  const login = async () => {
    const { payload, headers } = form({ username: user.email, password: user.password });
    const response = await sut.inject({ method: 'POST', url: '/api/v1/auth/login', payload, headers });
    expect(response.statusCode).toBe(200);
    return response;
  };
  const cookieOf = (response: { headers: Record<string, unknown> }) =>
    COOKIE.exec(String(response.headers['set-cookie']))?.[1];
  const refreshWithCookie = (token: string, origin?: string) =>
    sut.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { cookie: `theme=dark; refresh_token=${token}`, ...(origin ? { origin } : {}) },
    });

  it('sets the cookie on login, holding the refresh token of the answer', async () => {
    const response = await login();
    expect(response.headers['set-cookie']).toMatch(COOKIE);
    expect(cookieOf(response)).toBe(response.json().refresh_token);
  });

  it('refreshes from the cookie alone for a page on an allowed origin, and rotates the cookie', async () => {
    const first = cookieOf(await login())!;
    const refreshed = await refreshWithCookie(first, ALLOWED);
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.headers['cache-control']).toBe('no-store');
    const second = cookieOf(refreshed)!;
    expect(second).toBe(refreshed.json().refresh_token);
    expect(second).not.toBe(first);
    const me = await sut.inject({
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${refreshed.json().access_token}` },
    });
    expect(me.json().email).toBe(user.email);
  });

  it('refuses the cookie from another origin or without one (401), and leaves the session usable', async () => {
    const token = cookieOf(await login())!;
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
    const response = await login();
    const { payload, headers } = form({ refresh_token: response.json().refresh_token });
    const refreshed = await sut.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload,
      headers: { ...headers, cookie: 'refresh_token=not-a-token', origin: 'https://evil.example.com' },
    });
    expect(refreshed.statusCode).toBe(200);
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
    const tokens = (await login()).json();
    const response = await sut.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBe(
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
    const { payload, headers } = form({ username: user.email, password: user.password });
    const login = await sut.inject({ method: 'POST', url: '/api/v1/auth/login', payload, headers });
    expect(login.headers['set-cookie']).toBeUndefined();
    const refresh = await sut.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { cookie: `refresh_token=${login.json().refresh_token}`, origin: ALLOWED },
    });
    expect(refresh.statusCode).toBe(422);
  });
});
