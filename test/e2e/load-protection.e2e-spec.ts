import { connect } from 'node:net';
import { httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';

const REQUEST_TIMEOUT_MS = 1_500;

describe('load protection over real HTTP', () => {
  let sut: TestApp;
  let port: number;

  beforeAll(async () => {
    sut = await createTestApp({ env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
    port = Number(new URL(await sut.listen()).port);
  });
  afterAll(() => sut.close());

  it('a body sent one byte at a time is cut with 408 once REQUEST_TIMEOUT_MS has passed', async () => {
    const socket = connect(port, '127.0.0.1');
    const started = performance.now();
    let received = '';
    socket.on('data', (chunk) => (received += String(chunk)));
    socket.write(
      'POST /api/v1/users/register HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    const trickle = setInterval(() => socket.writable && socket.write(' '), 300);
    const closedAfterMs = await new Promise<number>((resolve) => {
      const giveUp = setTimeout(() => resolve(Infinity), REQUEST_TIMEOUT_MS + 5_000);
      socket.on('close', () => {
        clearTimeout(giveUp);
        resolve(performance.now() - started);
      });
      socket.on('error', () => undefined);
    });
    clearInterval(trickle);
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(received).toContain('{"detail":"Request timeout"}');
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 2_000);
  });
});

/** Small limits behind one trusted proxy, which passes each client's address in X-Forwarded-For. */
const BEHIND_ONE_PROXY = { TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_IP: '3', AUTH_RATE_LIMIT_GLOBAL: '6' };

const wrongPasswordLogin = (base: string, forwardedFor: string, email: string) =>
  httpCall(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
    body: `username=${encodeURIComponent(email)}&password=wrong-password`,
  });

describe('login and register rate limits behind one trusted proxy', () => {
  let sut: TestApp;
  let base: string;

  beforeAll(async () => {
    sut = await createTestApp({ env: BEHIND_ONE_PROXY });
    base = await sut.listen();
  });
  afterAll(() => sut.close());

  let sequence = 0;
  const login = (forwardedFor: string) =>
    wrongPasswordLogin(base, forwardedFor, `spray${(sequence += 1)}@example.com`);
  const register = (forwardedFor: string) =>
    httpCall(`${base}/api/v1/users/register`, {
      method: 'POST',
      headers: { 'x-forwarded-for': forwardedFor },
      body: {
        email: `new${(sequence += 1)}@example.com`,
        password: 'long enough password',
        full_name: 'New',
      },
    });
  const TOO_MANY = { detail: 'Too many requests, try again later' };

  it('limits a spray over many emails per client address (the address the proxy saw, not a spoofed one), then globally', async () => {
    const spoofing = [];
    for (let n = 0; n < 4; n += 1) spoofing.push(await login(`10.0.0.${n}, 198.51.100.7`));
    expect(spoofing.map((answer) => answer.status)).toEqual([401, 401, 401, 429]);
    expect(spoofing[3].body).toEqual(TOO_MANY);
    const retryAfter = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.7' },
      body: 'username=x%40example.com&password=wrong-password',
    });
    expect(Number(retryAfter.headers.get('retry-after'))).toBeGreaterThan(0);

    // 3 of the 6 login requests allowed in this window are used: those refused for their address
    // do not count for everyone.
    const others = [];
    for (const address of ['198.51.100.8', '198.51.100.9', '198.51.100.10', '198.51.100.11'])
      others.push(await login(address));
    expect(others.map((answer) => answer.status)).toEqual([401, 401, 401, 429]);
    expect(others[3].body).toEqual(TOO_MANY);
  });

  it('counts registrations in a bucket of their own', async () => {
    const answers = [];
    for (let n = 0; n < 4; n += 1) answers.push(await register('198.51.100.20'));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
  });
});

describe('one address spraying logins far beyond its own limit', () => {
  let sut: TestApp;
  let base: string;

  beforeAll(async () => {
    sut = await createTestApp({ env: BEHIND_ONE_PROXY });
    base = await sut.listen();
  });
  afterAll(() => sut.close());

  const login = (forwardedFor: string, email: string) => wrongPasswordLogin(base, forwardedFor, email);

  it('does not use up the limit every other client shares', async () => {
    const spray = [];
    for (let n = 0; n < 12; n += 1) spray.push(await login('203.0.113.5', `spray${n}@example.com`));
    expect(spray.map((answer) => answer.status)).toEqual([401, 401, 401, ...Array(9).fill(429)]);

    const others = [];
    for (const address of ['203.0.113.6', '203.0.113.7', '203.0.113.8'])
      others.push(await login(address, `someone-${address}@example.com`));
    expect(others.map((answer) => answer.status)).toEqual([401, 401, 401]);
  });
});
