import { registerUser, TestUser } from '../factories/users.factory';
import { allAtOnce, HttpAnswer, httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { TcpProxy } from '../support/tcp-proxy';

const STATEMENT_TIMEOUT_MS = 1_500;
/** The client gives up on a query 1 s after statement_timeout (see data-source-options.ts). */
const QUERY_DEADLINE_MS = STATEMENT_TIMEOUT_MS + 1_000;
/** No request may take longer than its dependency deadline plus this. */
const ANSWER_MARGIN_MS = 2_000;
const RECOVERY_WITHIN_MS = 10_000;

const UNAVAILABLE = { detail: 'Service temporarily unavailable' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Faults through a TCP proxy in front of a real PostgreSQL server (the e2e-postgres project only). */
const describeOnPostgres = process.env.TEST_DATABASE_KIND === 'postgres' ? describe : describe.skip;

describeOnPostgres('database faults through a TCP proxy', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let sut: TestApp;
  let base: string;
  /** A second instance on the same database and Redis, reaching the database directly. */
  let other: ServiceProcess;
  let otherBase: string;
  let user: TestUser;
  let keySequence = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    const proxied = await TcpProxy.inFrontOf(database.env.DATABASE_URL);
    proxy = proxied.proxy;
    sut = await createTestApp({
      database,
      env: {
        DATABASE_URL: proxied.url,
        DB_POOL_SIZE: '5',
        DB_CONNECT_TIMEOUT_MS: '1000',
        DB_ACQUIRE_TIMEOUT_MS: '1000',
        DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      },
    });
    base = await sut.listen();
    // A process of its own: Nest apps in one process share passport's strategy registry.
    other = await startServiceProcess({
      ...database.env,
      CACHE_NAMESPACE: process.env.CACHE_NAMESPACE ?? '',
    });
    otherBase = other.url;
    user = await registerUser(sut);
  }, 90_000);
  afterEach(() => {
    proxy.mode = 'forward';
    proxy.latencyMs = 0;
  });
  afterAll(async () => {
    await other.stop();
    await sut.close();
    await proxy.close();
    await database.drop();
  });

  const listTransactions = () => httpCall(`${base}/api/v1/portfolio/transactions`, { headers: user.headers });
  const buy = (key: string) =>
    httpCall(`${base}/api/v1/portfolio/transactions`, {
      method: 'POST',
      headers: { ...user.headers, 'idempotency-key': key },
      body: { symbol: 'AAPL', side: 'buy', quantity: 1, price: 100, executed_at: '2025-01-06', note: key },
    });
  const storedNotes = async () =>
    ((await listTransactions()).body as { transactions: { note: string | null }[] }).transactions.map(
      (transaction) => transaction.note,
    );

  /** Polls until the service answers 200 again, bounded in time: recovery needs no restart. */
  async function recovered(): Promise<HttpAnswer> {
    const deadline = performance.now() + RECOVERY_WITHIN_MS;
    for (;;) {
      const answer = await listTransactions();
      if (answer.status === 200 || performance.now() > deadline) return answer;
      await sleep(200);
    }
  }

  function expectUnavailable(answer: HttpAnswer, withinMs: number) {
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 503, body: UNAVAILABLE });
    expect(answer.elapsedMs).toBeLessThan(withinMs);
  }

  /** Writes refused during a fault, retried with their key afterwards: each is stored exactly once. */
  async function retriedWritesStoredOnce(keys: string[], firstAnswers: HttpAnswer[]) {
    const acknowledged = keys.filter((_, index) => firstAnswers[index].status === 201);
    const retries = await Promise.all(keys.map((key) => buy(key)));
    expect(retries.map((answer) => answer.status)).toEqual(keys.map(() => 201));
    const notes = await storedNotes();
    for (const key of keys) expect(notes.filter((note) => note === key)).toHaveLength(1);
    return acknowledged;
  }

  it('a reset connection answers 503 with Retry-After at once, and the service recovers by itself', async () => {
    expect((await listTransactions()).status).toBe(200);
    proxy.mode = 'reset';
    const keys = Array.from({ length: 3 }, () => `reset-${(keySequence += 1)}`);
    const answers = await allAtOnce([
      ...Array.from({ length: 5 }, () => listTransactions),
      ...keys.map((key) => () => buy(key)),
    ]);
    for (const answer of answers) expectUnavailable(answer, ANSWER_MARGIN_MS);
    const response = await fetch(`${base}/api/v1/portfolio/transactions`, { headers: user.headers });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');

    proxy.mode = 'forward';
    expect((await recovered()).status).toBe(200);
    await retriedWritesStoredOnce(keys, answers.slice(5));
  });

  it('a black-holed database answers 503 within the query deadline + 2 s, then recovers', async () => {
    expect((await listTransactions()).status).toBe(200);
    proxy.mode = 'blackhole';
    const keys = Array.from({ length: 3 }, () => `blackhole-${(keySequence += 1)}`);
    const answers = await allAtOnce([
      ...Array.from({ length: 8 }, () => listTransactions),
      ...keys.map((key) => () => buy(key)),
    ]);
    for (const answer of answers) expectUnavailable(answer, QUERY_DEADLINE_MS + ANSWER_MARGIN_MS);
    const [live, ready] = await Promise.all([httpCall(`${base}/livez`), httpCall(`${base}/readyz`)]);
    expect(live.status).toBe(200);
    expect({ status: ready.status, body: ready.body }).toEqual({
      status: 503,
      body: { status: 'not_ready', checks: { database: 'down', redis: expect.any(String), draining: false } },
    });
    expect(ready.elapsedMs).toBeLessThan(ANSWER_MARGIN_MS);

    proxy.mode = 'forward';
    expect((await recovered()).status).toBe(200);
    await retriedWritesStoredOnce(keys, answers.slice(8));
  });

  it('while one instance is cut off from the database, the other serves and its writes are stored', async () => {
    proxy.mode = 'blackhole';
    const [cutOff, serving, write] = await Promise.all([
      listTransactions(),
      httpCall(`${otherBase}/api/v1/portfolio/transactions`, { headers: user.headers }),
      httpCall(`${otherBase}/api/v1/portfolio/transactions`, {
        method: 'POST',
        headers: { ...user.headers, 'idempotency-key': 'other-instance' },
        body: {
          symbol: 'AAPL',
          side: 'buy',
          quantity: 1,
          price: 100,
          executed_at: '2025-01-06',
          note: 'other',
        },
      }),
    ]);
    expectUnavailable(cutOff, QUERY_DEADLINE_MS + ANSWER_MARGIN_MS);
    expect(serving.status).toBe(200);
    expect(write.status).toBe(201);
    proxy.mode = 'forward';
    expect((await recovered()).status).toBe(200);
    expect((await storedNotes()).filter((note) => note === 'other')).toHaveLength(1);
  });

  it('+200 ms per round trip under 40 concurrent requests: no error but 503, none past its deadline', async () => {
    expect((await listTransactions()).status).toBe(200);
    expect((await httpCall(`${base}/readyz`)).status).toBe(200);
    proxy.latencyMs = 200;
    const load = allAtOnce(Array.from({ length: 40 }, () => listTransactions));
    // The probes use a connection of their own: a saturated request pool does not turn them red.
    const probes: HttpAnswer[] = [];
    for (let poll = 0; poll < 4; poll += 1) {
      probes.push(await httpCall(`${base}/readyz`), await httpCall(`${base}/api/v1/system/health`));
    }
    const answers = await load;
    expect(probes.map((probe) => probe.status)).toEqual(probes.map(() => 200));
    for (const answer of answers) {
      expect([200, 503]).toContain(answer.status);
      expect(answer.elapsedMs).toBeLessThan(QUERY_DEADLINE_MS + ANSWER_MARGIN_MS);
    }
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThan(0);
  });
});
