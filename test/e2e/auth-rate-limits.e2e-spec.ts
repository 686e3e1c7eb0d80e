import { registerUser } from '../factories/users.factory';
import { httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';

/** Small limits behind one trusted proxy, which passes each client's address in X-Forwarded-For. */
const BEHIND_ONE_PROXY = {
  TRUST_PROXY: '1',
  AUTH_RATE_LIMIT_PER_IP: '3',
  AUTH_RATE_LIMIT_GLOBAL: '6',
  AUTH_REFRESH_RATE_LIMIT_PER_IP: '3',
};
const TOO_MANY = { detail: 'Too many requests, try again later' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('junk does not spend the login budget every client shares', () => {
  let sut: TestApp;
  let base: string;

  beforeAll(async () => {
    sut = await createTestApp({ env: BEHIND_ONE_PROXY });
    base = await sut.listen();
  });
  afterAll(() => sut.close());

  const junk = (forwardedFor: string, body: object | string) =>
    httpCall(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'x-forwarded-for': forwardedFor, ...(typeof body === 'string' ? FORM : {}) },
      body,
    });

  it('answers malformed logins from many addresses 422, and a real login from a fresh address still 200', async () => {
    const user = await registerUser(sut);
    const malformed = [];
    // Three times the global limit, from three times as many addresses as it takes to spend it.
    for (let address = 1; address <= 6; address += 1) {
      for (let n = 0; n < 3; n += 1) {
        malformed.push(await junk(`198.51.100.${address}`, n === 2 ? 'username=only-a-name' : {}));
      }
    }
    expect(malformed.map((answer) => answer.status)).toEqual(Array(18).fill(422));
    expect(malformed[0].body).toEqual({
      detail: [
        { loc: ['body', 'username'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'password'], msg: 'Field required', type: 'missing' },
      ],
    });

    const real = await httpCall(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { ...FORM, 'x-forwarded-for': '203.0.113.50' },
      body: new URLSearchParams({ username: user.email, password: user.password }).toString(),
    });
    expect(real.status).toBe(200);
  });

  it('still counts well-formed attempts per address', async () => {
    const answers = [];
    for (let n = 0; n < 4; n += 1) {
      answers.push(
        await httpCall(`${base}/api/v1/auth/login`, {
          method: 'POST',
          headers: { ...FORM, 'x-forwarded-for': '203.0.113.60' },
          body: `username=nobody${n}%40example.com&password=wrong-password`,
        }),
      );
    }
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 429]);
    expect(answers[3].body).toEqual(TOO_MANY);
  });
});

describe('POST /auth/refresh is limited per client address', () => {
  let sut: TestApp;
  let base: string;

  beforeAll(async () => {
    sut = await createTestApp({ env: BEHIND_ONE_PROXY });
    base = await sut.listen();
  });
  afterAll(() => sut.close());

  const refresh = (forwardedFor: string, refreshToken: string) =>
    fetch(`${base}/api/v1/auth/refresh`, {
      method: 'POST',
      headers: { ...FORM, 'x-forwarded-for': forwardedFor },
      body: new URLSearchParams({ refresh_token: refreshToken }).toString(),
      signal: AbortSignal.timeout(5_000),
    });

  it('answers 429 with Retry-After once an address has used its refreshes in the window', async () => {
    const answers = [];
    for (let n = 0; n < 5; n += 1) answers.push(await refresh('198.51.100.70', `not-a-token-${n}`));
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 429, 429]);
    expect(await answers[3].json()).toEqual(TOO_MANY);
    const retryAfter = Number(answers[3].headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('does not refuse other addresses: a valid refresh from another one is answered 200', async () => {
    const user = await registerUser(sut);
    for (let n = 0; n < 6; n += 1) await refresh('198.51.100.71', `not-a-token-${n}`);
    const answer = await refresh('198.51.100.72', user.refreshToken);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(expect.objectContaining({ token_type: 'bearer' }));
  });

  it('counts a request without a refresh token (422) against its own address only', async () => {
    const answers = [];
    for (let n = 0; n < 4; n += 1) {
      answers.push(
        await httpCall(`${base}/api/v1/auth/refresh`, {
          method: 'POST',
          headers: { 'x-forwarded-for': '198.51.100.73' },
          body: {},
        }),
      );
    }
    expect(answers.map((answer) => answer.status)).toEqual([422, 422, 422, 429]);
    expect((await refresh('198.51.100.74', 'not-a-token')).status).toBe(401);
  });
});
