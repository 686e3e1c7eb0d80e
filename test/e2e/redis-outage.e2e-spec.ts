import { ChildProcess, spawn } from 'node:child_process';
import { registerUser, TestUser } from '../factories/users.factory';
import { HttpAnswer, httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';
import { freePort } from '../support/service-process';

/** Redis commands are bounded at 500 ms; nothing may wait for Redis longer than that + 2 s. */
const ANSWER_WITHIN_MS = 2_500;
const RECOVERY_WITHIN_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A redis-server of this test's own, stopped by its PID: the machine's Redis is never touched. */
async function startRedis(port: number): Promise<ChildProcess> {
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
    server.stdout?.on('data', (chunk) => {
      if (String(chunk).includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return server;
}

async function stopRedis(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGKILL');
  await exited;
}

/** Needs redis-server on the PATH, as CI has; runs once, in the e2e-postgres project. */
const describeWithRedis = process.env.TEST_DATABASE_KIND === 'postgres' ? describe : describe.skip;

describeWithRedis('Redis down and back', () => {
  let redis: ChildProcess;
  let redisPort: number;
  let sut: TestApp;
  let base: string;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    sut = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${redisPort}` } });
    base = await sut.listen();
  });
  afterAll(async () => {
    await sut.close();
    await stopRedis(redis);
  });

  const me = (user: TestUser) => httpCall(`${base}/api/v1/auth/me`, { headers: user.headers });
  const quote = (user: TestUser, symbol: string) =>
    httpCall(`${base}/api/v1/market/stock/${symbol}`, { headers: user.headers });
  const readiness = async () =>
    (await httpCall(`${base}/readyz`)) as HttpAnswer & { body: { checks: { redis: string } } };

  function expectFast(answer: HttpAnswer, status: number) {
    expect(answer.status).toBe(status);
    expect(answer.elapsedMs).toBeLessThan(ANSWER_WITHIN_MS);
  }

  it('serves from the database while Redis is gone, keeps revocation correct, and recovers by itself', async () => {
    const [user, leaving] = await Promise.all([registerUser(sut), registerUser(sut)]);
    expectFast(await me(user), 200);
    expectFast(await me(leaving), 200);
    expect((await readiness()).body.checks.redis).toBe('up');
    // The first quote loads the offline price set, a cold cost of its own that is not Redis's to bound.
    expect((await quote(user, 'AAPL')).status).toBe(200);

    await stopRedis(redis);
    expectFast(await me(user), 200);
    expectFast(await quote(user, 'MSFT'), 200);
    const during = await readiness();
    expect({ status: during.status, redis: during.body.checks.redis }).toEqual({
      status: 200,
      redis: 'down',
    });
    expectFast(
      await httpCall(`${base}/api/v1/auth/logout`, { method: 'POST', headers: leaving.headers }),
      200,
    );
    expectFast(await me(leaving), 401);

    redis = await startRedis(redisPort);
    const deadline = performance.now() + RECOVERY_WITHIN_MS;
    while ((await readiness()).body.checks.redis !== 'up' && performance.now() < deadline) await sleep(200);
    expect((await readiness()).body.checks.redis).toBe('up');
    expectFast(await me(user), 200);
    expectFast(await me(user), 200);
    expectFast(await me(leaving), 401);
    expectFast(await quote(user, 'JPM'), 200);
  });
});
