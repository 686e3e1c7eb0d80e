import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { get } from 'node:http';
import { join } from 'node:path';
import { Client } from 'pg';
import { GRAPH_LOCK } from '../../src/modules/graph/graph.repository';
import { allAtOnce, ANSWER_WITHIN_MS, HttpAnswer, httpCall } from '../setup/http-call';
import { TEST_SECRET_KEY } from '../setup/test-app';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { freePort } from '../support/service-process';
import { TcpProxy } from '../support/tcp-proxy';

const ROOT = join(__dirname, '..', '..');
const BOOT_WITHIN_MS = 60_000;
const EXIT_WITHIN_MS = 20_000;
/** A sign-up hashes a password while the boot's warm-ups share the CPU: 5 s timed out at load 12. */
const SIGN_UP_WITHIN_MS = 15_000;
/** A boot, ten sign-ups and a drain of slowed writes: well past Jest's default 30 s at load 12. */
const TEST_WITHIN_MS = 90_000;
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

interface BuiltService {
  process: ChildProcess;
  base: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** The built service (dist/main.js) in a child process of its own, once it answers /livez. */
async function startBuiltService(env: Record<string, string>): Promise<BuiltService> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { PATH, HOME } = process.env;
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: {
      PATH,
      HOME,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      SECRET_KEY: TEST_SECRET_KEY,
      LOG_LEVEL: 'warn',
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
      SHUTDOWN_DRAIN_TIMEOUT_MS: String(DRAIN_TIMEOUT_MS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = performance.now() + BOOT_WITHIN_MS;
  for (;;) {
    const live = await httpCall(`${base}/livez`).catch(() => null);
    if (live?.status === 200) break;
    if (performance.now() > deadline || child.exitCode !== null) {
      throw new Error(`The service did not start:\n${output}`);
    }
    await sleep(200);
  }
  return { process: child, base, exited, output: () => output };
}

async function killLeftOver(service: BuiltService | undefined): Promise<void> {
  if (!service || service.process.exitCode !== null || service.process.signalCode !== null) return;
  service.process.kill('SIGKILL');
  await service.exited;
}

/**
 * Readiness asked over a connection of its own. On a kept-alive connection, a request that reaches
 * a service whose event loop is busy (the boot's warm-ups) may be read in the same turn as the
 * signal sent before it, and handled first; a new connection is read a turn after it is accepted.
 */
function readinessOnNewConnection(base: string): Promise<{ status: number; draining: boolean }> {
  return new Promise((resolve, reject) => {
    const request = get(`${base}/readyz`, { agent: false, timeout: ANSWER_WITHIN_MS }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          draining: (JSON.parse(body) as { checks: { draining: boolean } }).checks.draining,
        }),
      );
    });
    request.on('error', reject);
    request.on('timeout', () => request.destroy(new Error('readiness did not answer in time')));
  });
}

/** SIGTERM: readiness turns false at once. */
async function terminateAndCheckDrain({ process: child, base }: BuiltService): Promise<void> {
  child.kill('SIGTERM');
  await sleep(100);
  expect(await readinessOnNewConnection(base)).toEqual({ status: 503, draining: true });
}

/** The process exits in time, by itself, and no longer answers. */
async function exitedInTime({ base, exited, output }: BuiltService): Promise<void> {
  const outcome = await Promise.race([exited, sleep(EXIT_WITHIN_MS).then(() => null)]);
  expect(outcome).not.toBeNull();
  if (!(outcome?.code === 0 || outcome?.signal === 'SIGTERM')) {
    throw new Error(
      `The service exited with ${JSON.stringify(outcome)}; its last output:\n${output().slice(-4000)}`,
    );
  }
  await expect(fetch(`${base}/livez`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
}

/**
 * SIGTERM as soon as the service listens, on either database: the market graph's build and its
 * first news intake are running among the boot's warm-ups, and Nest's destroy hooks wait for them.
 */
describe('SIGTERM to the built service right after boot', () => {
  let database: TestDatabase;
  let service: BuiltService | undefined;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.js')], { stdio: 'pipe' });
    database = await createTestDatabase();
  }, 120_000);
  afterAll(async () => {
    await killLeftOver(service);
    await database.drop();
  });

  it(
    'turns readiness false at once, while the warm-ups still run, and exits by itself',
    async () => {
      service = await startBuiltService(database.env);
      await terminateAndCheckDrain(service);
      await exitedInTime(service);
    },
    TEST_WITHIN_MS,
  );
});

/**
 * SIGTERM to the built service, a real child process, on a real PostgreSQL server reached
 * through a TCP proxy that slows it down (the e2e-postgres project only).
 */
const describeOnPostgres = process.env.TEST_DATABASE_KIND === 'postgres' ? describe : describe.skip;

describeOnPostgres('graceful shutdown of the built service', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let service: BuiltService | undefined;
  let authorizations: string[];
  let base: string;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.js')], { stdio: 'pipe' });
    database = await createTestDatabase();
    proxy = (await TcpProxy.inFrontOf(database.env.DATABASE_URL)).proxy;
  }, 120_000);
  afterEach(() => killLeftOver(service));
  afterAll(async () => {
    await proxy.close();
    await database.drop();
  });

  async function start(env: Record<string, string> = {}): Promise<BuiltService> {
    proxy.latencyMs = 0;
    service = await startBuiltService({
      DATA_DIR: database.env.DATA_DIR,
      DATABASE_URL: proxy.throughProxy(database.env.DATABASE_URL),
      DB_POOL_SIZE: '20',
      DB_ACQUIRE_TIMEOUT_MS: '15000',
      ...env,
    });
    base = service.base;
    authorizations = [];
    try {
      for (let user = 0; user < USERS; user += 1) authorizations.push(await registerAndLogIn());
    } catch (error) {
      throw new Error(`${String(error)}; the service's last output:\n${service.output().slice(-4000)}`);
    }
    return service;
  }

  async function registerAndLogIn(): Promise<string> {
    const email = `drain-${Date.now()}-${Math.random()}@example.com`;
    const password = 'correct horse battery staple';
    const registered = await httpCall(`${base}/api/v1/users/register`, {
      method: 'POST',
      body: { email, password, full_name: 'Drain Test' },
      timeoutMs: SIGN_UP_WITHIN_MS,
    });
    expect(registered.status).toBe(200);
    const login = await httpCall(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: email, password }).toString(),
      timeoutMs: SIGN_UP_WITHIN_MS,
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

  it(
    '50 concurrent writes in flight at SIGTERM are all answered and all stored',
    async () => {
      const started = await start();
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
      await terminateAndCheckDrain(started);
      const answers: HttpAnswer[] = await writes;
      expect(answers.map((answer) => answer.status)).toEqual(notes.map(() => 201));
      await exitedInTime(started);
      expect(await stored('SELECT count(*) FROM portfolio_transactions WHERE note = ANY($1)', [notes])).toBe(
        50,
      );
    },
    TEST_WITHIN_MS,
  );

  it(
    'a market graph build in progress at SIGTERM does not hold back the drain; the request waiting for it is answered',
    async () => {
      const graphMaintenance = await holdGraphMaintenance();
      let started: BuiltService;
      try {
        // The build waits for the lock from boot to its release, past the default 5 s statement timeout.
        started = await start({ DB_STATEMENT_TIMEOUT_MS: String(TEST_WITHIN_MS) });
        const related = httpCall(`${base}/api/v1/market/stock/NVDA/related?by=industry`, {
          headers: { authorization: authorizations[0] },
          timeoutMs: DRAIN_TIMEOUT_MS,
        });
        await sleep(200);
        await terminateAndCheckDrain(started);
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
      await exitedInTime(started);
    },
    TEST_WITHIN_MS,
  );

  it(
    'a CSV import of 3,000 rows in flight at SIGTERM is acknowledged and stored',
    async () => {
      const started = await start();
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
      await terminateAndCheckDrain(started);
      const answer = await importing;
      expect({ status: answer.status, imported: (answer.body as { imported: number }).imported }).toEqual({
        status: 201,
        imported: 3_000,
      });
      await exitedInTime(started);
      expect(
        await stored("SELECT count(*) FROM portfolio_transactions WHERE note = 'drain-import'", []),
      ).toBe(3_000);
    },
    TEST_WITHIN_MS,
  );
});
