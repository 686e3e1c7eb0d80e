import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { GRAPH_LOCK } from '../../src/modules/graph/graph.repository';
import { allAtOnce, HttpAnswer, httpCall } from '../setup/http-call';
import { TEST_SECRET_KEY } from '../setup/test-app';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { freePort } from '../support/service-process';
import { TcpProxy } from '../support/tcp-proxy';

const ROOT = join(__dirname, '..', '..');
const BOOT_WITHIN_MS = 60_000;
const EXIT_WITHIN_MS = 20_000;
/**
 * A request in flight at SIGTERM must be answered before the drain gives up on it. Each user's
 * writes queue behind the ledger lock, about a dozen slowed round trips each, so the last of a
 * user's five can take longer than the concurrency tests' usual answer time on a busy machine.
 */
const DRAIN_TIMEOUT_MS = 15_000;
/**
 * How long the listener stays open after SIGTERM: long enough for every request sent before it to
 * have connected on a loaded machine (at 300 ms the last of 50 were sometimes refused at load 10).
 */
const SHUTDOWN_DELAY_MS = 1_000;
/** Each database round trip is slowed by this, so requests are still running when SIGTERM lands. */
const LATENCY_MS = 50;
/** One user's writes queue behind each other (the ledger lock): the load is spread over several users. */
const USERS = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGTERM to the built service, a real child process, on a real PostgreSQL server reached
 * through a TCP proxy that slows it down (the e2e-postgres project only).
 */
const describeOnPostgres = process.env.TEST_DATABASE_KIND === 'postgres' ? describe : describe.skip;

describeOnPostgres('graceful shutdown of the built service', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let service: ChildProcess;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  let output = '';
  let authorizations: string[];
  let servicePort: number;
  let base: string;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.js')], { stdio: 'pipe' });
    database = await createTestDatabase();
    proxy = (await TcpProxy.inFrontOf(database.env.DATABASE_URL)).proxy;
  }, 120_000);
  afterEach(async () => {
    if (service.exitCode === null && service.signalCode === null) {
      service.kill('SIGKILL');
      await exited;
    }
  });
  afterAll(async () => {
    await proxy.close();
    await database.drop();
  });

  async function start(): Promise<void> {
    proxy.latencyMs = 0;
    servicePort = await freePort();
    base = `http://127.0.0.1:${servicePort}`;
    const { PATH, HOME } = process.env;
    service = spawn(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      env: {
        PATH,
        HOME,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(servicePort),
        DATA_DIR: database.env.DATA_DIR,
        DATABASE_URL: proxy.throughProxy(database.env.DATABASE_URL),
        SECRET_KEY: TEST_SECRET_KEY,
        LOG_LEVEL: 'warn',
        DB_POOL_SIZE: '20',
        DB_ACQUIRE_TIMEOUT_MS: '15000',
        SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
        SHUTDOWN_DRAIN_TIMEOUT_MS: String(DRAIN_TIMEOUT_MS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    output = '';
    service.stdout?.on('data', (chunk) => (output += String(chunk)));
    service.stderr?.on('data', (chunk) => (output += String(chunk)));
    exited = new Promise((resolve) => service.once('exit', (code, signal) => resolve({ code, signal })));
    const deadline = performance.now() + BOOT_WITHIN_MS;
    for (;;) {
      const live = await httpCall(`${base}/livez`).catch(() => null);
      if (live?.status === 200) break;
      if (performance.now() > deadline || service.exitCode !== null) {
        throw new Error(`The service did not start:\n${output}`);
      }
      await sleep(200);
    }
    authorizations = [];
    for (let user = 0; user < USERS; user += 1) authorizations.push(await registerAndLogIn());
  }

  async function registerAndLogIn(): Promise<string> {
    const email = `drain-${Date.now()}-${Math.random()}@example.com`;
    const password = 'correct horse battery staple';
    const registered = await httpCall(`${base}/api/v1/users/register`, {
      method: 'POST',
      body: { email, password, full_name: 'Drain Test' },
    });
    expect(registered.status).toBe(200);
    const login = await httpCall(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: email, password }).toString(),
    });
    return `Bearer ${(login.body as { access_token: string }).access_token}`;
  }

  async function stored(sql: string, values: unknown[]): Promise<number> {
    const client = new Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    try {
      return Number((await client.query(sql, values)).rows[0].count);
    } finally {
      await client.end();
    }
  }

  /**
   * A session of the test's own holding the market graph's maintenance lock, as another instance
   * building the graph would: the service's next build or refresh waits for it. The graph is made
   * stale first (when an earlier test built it), so the boot measures its correlations again.
   */
  async function holdGraphMaintenance(): Promise<{ release(): Promise<void> }> {
    const client = new Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    await client.query(`DO $$ BEGIN
      IF to_regclass('graph_state') IS NOT NULL THEN
        UPDATE graph_state SET correlations_as_of = correlations_as_of - 7;
      END IF;
    END $$`);
    await client.query('SELECT pg_advisory_lock($1)', [GRAPH_LOCK]);
    let released: Promise<void> | null = null;
    return { release: () => (released ??= client.end()) };
  }

  /** SIGTERM: readiness turns false at once, no new connection is accepted after the delay, the process exits. */
  async function terminateAndCheckDrain(): Promise<void> {
    service.kill('SIGTERM');
    await sleep(100);
    const ready = await httpCall(`${base}/readyz`);
    expect({
      status: ready.status,
      draining: (ready.body as { checks: { draining: boolean } }).checks.draining,
    }).toEqual({ status: 503, draining: true });
  }

  async function exitedInTime() {
    const outcome = await Promise.race([exited, sleep(EXIT_WITHIN_MS).then(() => null)]);
    expect(outcome).not.toBeNull();
    if (!(outcome?.code === 0 || outcome?.signal === 'SIGTERM')) {
      throw new Error(
        `The service exited with ${JSON.stringify(outcome)}; its last output:\n${output.slice(-4000)}`,
      );
    }
    await expect(fetch(`${base}/livez`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
  }

  it('50 concurrent writes in flight at SIGTERM are all answered and all stored', async () => {
    await start();
    proxy.latencyMs = LATENCY_MS;
    const notes = Array.from({ length: 50 }, (_, index) => `drain-load-${index}`);
    const writes = allAtOnce(
      notes.map(
        (note, index) => () =>
          httpCall(`${base}/api/v1/portfolio/transactions`, {
            method: 'POST',
            headers: { authorization: authorizations[index % USERS], 'idempotency-key': note },
            body: { symbol: 'AAPL', side: 'buy', quantity: 1, price: 100, executed_at: '2025-01-06', note },
            timeoutMs: DRAIN_TIMEOUT_MS,
          }),
      ),
    );
    await sleep(200);
    await terminateAndCheckDrain();
    const answers: HttpAnswer[] = await writes;
    expect(answers.map((answer) => answer.status)).toEqual(notes.map(() => 201));
    await exitedInTime();
    expect(await stored('SELECT count(*) FROM portfolio_transactions WHERE note = ANY($1)', [notes])).toBe(
      50,
    );
  });

  it('a market graph build in progress at SIGTERM does not hold back the drain; the request waiting for it is answered', async () => {
    const graphMaintenance = await holdGraphMaintenance();
    try {
      await start();
      const related = httpCall(`${base}/api/v1/market/stock/NVDA/related?by=industry`, {
        headers: { authorization: authorizations[0] },
        timeoutMs: DRAIN_TIMEOUT_MS,
      });
      await sleep(200);
      await terminateAndCheckDrain();
      await sleep(SHUTDOWN_DELAY_MS + 1_000);
      await expect(fetch(`${base}/livez`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
      await graphMaintenance.release();
      const answer = await related;
      expect({ status: answer.status, symbol: (answer.body as { symbol: string }).symbol }).toEqual({
        status: 200,
        symbol: 'NVDA',
      });
    } finally {
      await graphMaintenance.release();
    }
    await exitedInTime();
  });

  it('a CSV import of 3,000 rows in flight at SIGTERM is acknowledged and stored', async () => {
    await start();
    proxy.latencyMs = LATENCY_MS;
    const rows = Array.from({ length: 3_000 }, () => '2025-01-06,MSFT,buy,1,100,0,drain-import');
    const importing = httpCall(`${base}/api/v1/portfolio/transactions/import`, {
      method: 'POST',
      headers: {
        authorization: authorizations[0],
        'content-type': 'text/csv',
        'idempotency-key': 'drain-import',
      },
      body: `date,symbol,side,quantity,price,fees,note\n${rows.join('\n')}\n`,
      timeoutMs: DRAIN_TIMEOUT_MS,
    });
    await sleep(200);
    await terminateAndCheckDrain();
    const answer = await importing;
    expect({ status: answer.status, imported: (answer.body as { imported: number }).imported }).toEqual({
      status: 201,
      imported: 3_000,
    });
    await exitedInTime();
    expect(await stored("SELECT count(*) FROM portfolio_transactions WHERE note = 'drain-import'", [])).toBe(
      3_000,
    );
  });
});
