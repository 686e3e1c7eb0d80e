// Alerting at scale, against issue 25's targets: 10,000 users with 10 rules each evaluated within
// one replay tick (5 s), and the API's p99 with alerting running within 20 % of its p99 without.
//
// It starts PostgreSQL from the embedded binaries (the server the service starts by itself with
// DATABASE_URL unset; started here so the benchmark can seed it) or uses a fresh database on
// BENCH_DATABASE_URL (with BENCH_REDIS_URL), then the built service with its job runner on and the
// replay's 5 s tick. One user with a 5,000-trade, 50-symbol portfolio drives the API; 10,000 users
// with 10 rules each are written straight into the database (argon2 through the API would take an
// hour), with thresholds no price reaches, so every pass evaluates all 100,000 and fires none.
//
// Then ROUNDS interleaved rounds of two phases of PHASE_SECONDS each, in alternating order: the
// rules paused (alerting has nothing to do: the baseline) and the rules active (a pass every tick).
// In both, the API user calls a quote, their portfolio summary and their inbox, CONCURRENCY at a
// time. Every pass's duration and rule count come from pg-boss's own record of the job.
//
// BENCH_ALERT_ROUNDS (default 4), BENCH_ALERT_PHASE_SECONDS (20), BENCH_PORT_BASE (7800) tune it;
// BENCH_CPU_PROFILE_DIR has the service write its V8 CPU profile there when it stops.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres';
import { inEveryMode, Mode } from './http/modes';
import { call, HELD_SYMBOLS, seedPortfolio, Session, signUp } from './http/seed';
import { startService } from './http/service';

const USERS = 10_000;
const RULES_PER_USER = 10;
const TICK_MS = 5_000;
const P99_BUDGET_RATIO = 1.2;
const ROUNDS = Number(process.env.BENCH_ALERT_ROUNDS ?? 4);
const PHASE_SECONDS = Number(process.env.BENCH_ALERT_PHASE_SECONDS ?? 20);
const CONCURRENCY = 4;
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 7800);
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
const RULE_SYMBOLS = HELD_SYMBOLS.slice(0, 20);
const API_PATHS = [
  '/api/v1/market/stock/AAPL',
  '/api/v1/portfolio/summary',
  '/api/v1/notifications?limit=20',
];

/**
 * Each seeded user's ten rules, none of which any price reaches: four on a price, two on a
 * symbol's day change, a drawdown, news, the watchlist and the portfolio's day change.
 */
const RULE_MIX = `
  (VALUES
    ('price_above', 'symbol', '{"price": 1000000}'::jsonb),
    ('price_above', 'symbol', '{"price": 2000000}'::jsonb),
    ('price_below', 'symbol', '{"price": 0.01}'::jsonb),
    ('price_below', 'symbol', '{"price": 0.02}'::jsonb),
    ('day_change', 'symbol', '{"percent": 99}'::jsonb),
    ('day_change', 'symbol', '{"percent": 98}'::jsonb),
    ('drawdown', 'symbol', '{"percent": 99}'::jsonb),
    ('news', 'symbol', '{"sentiment": "positive", "min_score": 1}'::jsonb),
    ('watchlist_move', 'none', '{"percent": 99}'::jsonb),
    ('day_change', 'portfolio', '{"percent": 99}'::jsonb)
  ) AS mix (kind, target, params)`;

function percentile(timings: readonly number[], fraction: number): number {
  const sorted = [...timings].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A database for the service: embedded binaries started here, or a fresh one on a server. */
async function databaseFor(mode: Mode): Promise<{ url: string; stop(): Promise<void> }> {
  await mode.prepare();
  if (mode.env.DATABASE_URL) return { url: mode.env.DATABASE_URL, stop: () => mode.cleanup() };
  const dataDir = mkdtempSync(join(tmpdir(), 'ia-bench-alerts-'));
  const server = await startEmbeddedPostgres(dataDir);
  const { host, port, username, database } = server.connection;
  return {
    url: `postgresql://${username}@localhost:${port}/${database}?host=${encodeURIComponent(host)}`,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
      await mode.cleanup();
    },
  };
}

async function seedRules(db: Client): Promise<void> {
  await db.query(
    `INSERT INTO users (email, full_name, hashed_password)
     SELECT 'alerts-bench-' || n || '@example.com', 'Alerts Bench ' || n, 'not a password hash'
     FROM generate_series(1, $1) AS n`,
    [USERS],
  );
  await db.query(
    `INSERT INTO alert_rules (user_id, kind, target, params, status, armed_at, created_at)
     SELECT u.id, mix.kind,
            CASE mix.target WHEN 'symbol' THEN ($1::text[])[1 + (u.id + length(mix.params::text)) % $2]
                            WHEN 'portfolio' THEN 'portfolio' END,
            mix.params, 'paused', now(), now()
     FROM users u CROSS JOIN ${RULE_MIX}
     WHERE u.email LIKE 'alerts-bench-%'`,
    [RULE_SYMBOLS, RULE_SYMBOLS.length],
  );
  // A table that grew to 100,000 rules over time has statistics (autovacuum keeps them); one that
  // a single INSERT filled has none until autovacuum's next round, and the planner would guess.
  await db.query(`ANALYZE alert_rules`);
  const [{ count }] = (await db.query(`SELECT count(*)::int AS count FROM alert_rules`)).rows as {
    count: number;
  }[];
  if (count !== USERS * RULES_PER_USER) throw new Error(`seeded ${count} rules`);
}

/**
 * Pauses or activates every rule, then analyses the table as autovacuum would within its naptime
 * (a minute) after a change of this size: the pass's plan relies on the share of active rules, and
 * no deployment flips 100,000 rules every 20 s.
 */
async function setRules(db: Client, status: 'active' | 'paused'): Promise<void> {
  await db.query(`UPDATE alert_rules SET status = $1 WHERE status <> $1`, [status]);
  await db.query(`ANALYZE alert_rules`);
}

/** Waits for the evaluation pass in progress, if any, to finish. */
async function passFinished(db: Client): Promise<void> {
  for (;;) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS running FROM pgboss.job WHERE name = 'alerts-evaluate' AND state = 'active'`,
    );
    if ((rows[0] as { running: number }).running === 0) return;
    await pause(100);
  }
}

interface Pass {
  ms: number;
  evaluated: number;
  fired: number;
}

async function passesSince(db: Client, since: Date): Promise<Pass[]> {
  const { rows } = await db.query(
    `SELECT extract(epoch FROM completed_on - started_on) * 1000 AS ms, output
     FROM pgboss.job WHERE name = 'alerts-evaluate' AND state = 'completed' AND started_on >= $1
     ORDER BY started_on`,
    [since],
  );
  return (rows as { ms: number; output: { evaluated?: number; fired?: number } | null }[]).map((row) => ({
    ms: Number(row.ms),
    evaluated: row.output?.evaluated ?? 0,
    fired: row.output?.fired ?? 0,
  }));
}

/** The API user's traffic for `seconds`, CONCURRENCY requests at a time. */
async function apiLoad(session: Session, seconds: number): Promise<number[]> {
  const timings: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      for (let request = worker; performance.now() < until; request += CONCURRENCY) {
        const path = API_PATHS[request % API_PATHS.length];
        const started = performance.now();
        const reply = await call(session.baseUrl, 'GET', path, { token: session.accessToken });
        if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.body.slice(0, 300)}`);
        timings.push(performance.now() - started);
      }
    }),
  );
  return timings;
}

async function benchMode(mode: Mode): Promise<string> {
  const database = await databaseFor(mode);
  const db = new Client({ connectionString: database.url });
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  try {
    service = await startService(
      mode.port,
      {
        ...mode.env,
        DATABASE_URL: database.url,
        SECRET_KEY: 'alerts-bench-secret-key-of-enough-length-0123456789',
        NODE_ENV: 'production',
        JOBS_ENABLED: 'true',
        ALERTS_EVALUATION_INTERVAL_MS: String(TICK_MS),
      },
      PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
    );
    await db.connect();
    const session = await signUp(service.baseUrl);
    await seedPortfolio(session);
    await seedRules(db);
    console.error(`${mode.label}: seeded ${USERS} users × ${RULES_PER_USER} rules`);
    await apiLoad(session, 3);

    const baseline: number[] = [];
    const alerting: number[] = [];
    const startedAt = new Date();
    for (let round = 0; round < ROUNDS; round += 1) {
      const order: ('paused' | 'active')[] = round % 2 === 0 ? ['paused', 'active'] : ['active', 'paused'];
      for (const status of order) {
        await setRules(db, status);
        if (status === 'paused') await passFinished(db);
        (status === 'paused' ? baseline : alerting).push(...(await apiLoad(session, PHASE_SECONDS)));
      }
      console.error(`${mode.label}: round ${round + 1} of ${ROUNDS}`);
    }
    await setRules(db, 'paused');
    await passFinished(db);
    const passes = (await passesSince(db, startedAt)).filter((pass) => pass.evaluated > 0);
    const full = passes.filter((pass) => pass.evaluated === USERS * RULES_PER_USER);
    console.error(
      `${mode.label}: passes (rules evaluated / ms): ${passes.map((pass) => `${pass.evaluated}/${pass.ms.toFixed(0)}`).join(' ')}`,
    );
    const passMs = full.map((pass) => pass.ms);
    const slowest = passMs.length > 0 ? Math.max(...passMs) : Infinity;
    const baseP99 = percentile(baseline, 0.99);
    const alertP99 = percentile(alerting, 0.99);
    const ratio = alertP99 / baseP99;
    const row = (name: string, timings: number[]) =>
      timings.length === 0
        ? `| ${name} | 0 | – | – | – |`
        : `| ${name} | ${timings.length} | ${percentile(timings, 0.5).toFixed(1)} | ${percentile(timings, 0.99).toFixed(1)} | ${Math.max(...timings).toFixed(1)} |`;
    return [
      `## ${mode.label}`,
      '',
      '| measure | n | p50 ms | p99 ms | max ms |',
      '|---|---|---|---|---|',
      row(`evaluation pass over all ${(USERS * RULES_PER_USER).toLocaleString('en-US')} rules`, passMs),
      row('API (quote, summary, inbox), rules paused: the baseline', baseline),
      row('API (quote, summary, inbox), alerting running', alerting),
      '',
      `Passes: ${full.length} over all rules (${passes.length - full.length} partial, at a phase's edge), ` +
        `${passes.reduce((sum, pass) => sum + pass.fired, 0)} rules fired.`,
      `Slowest pass: ${slowest.toFixed(0)} ms; budget one tick, ${TICK_MS} ms: ${slowest <= TICK_MS ? 'met' : 'NOT met'}.`,
      `API p99 with alerting / without: ${alertP99.toFixed(1)} / ${baseP99.toFixed(1)} ms = ${ratio.toFixed(2)} ×; ` +
        `budget ${P99_BUDGET_RATIO} ×: ${ratio <= P99_BUDGET_RATIO ? 'met' : 'NOT met'}.`,
    ].join('\n');
  } finally {
    await db.end().catch(() => undefined);
    await service?.stop();
    await database.stop();
  }
}

async function main(): Promise<void> {
  const sections = await inEveryMode(PORT_BASE, benchMode);
  console.log(
    [
      `# Alerts: ${USERS.toLocaleString('en-US')} users × ${RULES_PER_USER} rules`,
      '',
      `Run ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} (load average ` +
        `${loadavg()
          .map((load) => load.toFixed(1))
          .join(', ')} at the end), ${ROUNDS} rounds of two ` +
        `${PHASE_SECONDS} s phases (rules paused, rules active, in alternating order), ` +
        `${CONCURRENCY} API requests at a time.`,
      '',
      sections.join('\n\n'),
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
