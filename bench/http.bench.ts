// The service over HTTP at the load issue 16 describes, against a bare Fastify + HS256 JWT server
// measured in the same run. For each database mode (the embedded default; PostgreSQL + Redis too
// when BENCH_DATABASE_URL and BENCH_REDIS_URL are set) it starts the built service on a fresh
// database, seeds a user with 5,000 trades over 50 symbols and a 20-symbol watchlist through the
// API, runs autocannon against every route of the table (a warm-up, then the measured run;
// twice, to see memory settle), reads the server's CPU from /proc, then times first requests after
// a ledger write and after a restart. Prints the tables and writes bench/results/http.md.
//
// The light routes are also compared with a lean NestJS reference (bench/http/lean-server.ts) in
// interleaved rounds, after the passes; the news list, batch quotes and sentiment scoring are
// measured in the same rounds and judged against the reference's quote route.
//
// BENCH_SECONDS (default 4), BENCH_WARMUP_SECONDS (1), BENCH_PASSES (2; 0 runs the light-route
// comparison only), BENCH_LIGHT_ROUNDS (5) and BENCH_PORT_BASE (7500: the baseline there, the lean
// reference at +5, the service at +10 and +20) tune it; BENCH_SKIP_BUILD=1 uses dist/ as it is. The
// defaults finish both modes within 15 minutes on two shared cores.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { measure } from './http/load';
import { descendantsRssMb, memoryOf } from './http/proc-stats';
import { FirstRequest, modeSection, ModeResult, PassResult, passTable } from './http/report';
import { benchRoutes, routeRequest } from './http/routes';
import { call, seedPortfolio, Session, signUp } from './http/seed';
import { build, embeddedMode, Mode, postgresMode } from './http/modes';
import { compareLightRoutes, LightResult } from './http/light';
import { RunningProcess, startBaseline, startLeanReference, startService } from './http/service';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const PASSES = Number(process.env.BENCH_PASSES ?? 2);
const LIGHT_ROUNDS = Number(process.env.BENCH_LIGHT_ROUNDS ?? 5);
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 7500);
const SECRET_KEY = randomBytes(32).toString('hex');
const WARM_SAMPLES = 5;

async function timed(session: Session, path: string): Promise<number> {
  const started = performance.now();
  const reply = await call(session.baseUrl, 'GET', path, { token: session.accessToken });
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.body.slice(0, 300)}`);
  return performance.now() - started;
}

async function warmMedian(session: Session, path: string): Promise<number> {
  const timings: number[] = [];
  for (let sample = 0; sample < WARM_SAMPLES; sample += 1) timings.push(await timed(session, path));
  return timings.sort((a, b) => a - b)[Math.floor(WARM_SAMPLES / 2)];
}

async function recordTrade(session: Session): Promise<void> {
  const reply = await call(session.baseUrl, 'POST', '/api/v1/portfolio/transactions', {
    token: session.accessToken,
    contentType: 'application/json',
    body: JSON.stringify({
      symbol: 'AAPL',
      side: 'buy',
      quantity: 1,
      price: 150,
      executed_at: new Date(Date.now() - 60_000).toISOString(),
    }),
  });
  if (reply.status !== 201) throw new Error(`recording a trade: ${reply.status} ${reply.body}`);
}

const FIRST_REQUEST_ROUTES = [
  { name: 'summary', path: '/api/v1/portfolio/summary' },
  { name: 'risk-metrics', path: '/api/v1/portfolio/risk-metrics' },
];

async function runPass(
  service: RunningProcess,
  baseline: RunningProcess,
  session: Session,
  label: string,
): Promise<PassResult> {
  const baselineFigures = await measure(
    baseline.pid,
    {
      url: `${baseline.baseUrl}/api/v1/auth/me`,
      method: 'GET',
      headers: { authorization: `Bearer ${session.accessToken}` },
      connections: 32,
    },
    WARMUP_SECONDS,
    SECONDS,
  );
  const routes: PassResult['routes'] = [];
  for (const route of benchRoutes()) {
    const figures = await measure(
      service.pid,
      routeRequest(service.baseUrl, route, session.accessToken),
      WARMUP_SECONDS,
      SECONDS,
    );
    routes.push({ route, figures });
    console.error(`  ${label}: ${route.name} done`);
  }
  return { baseline: baselineFigures, routes, rssMb: memoryOf(service.pid).rssMb };
}

async function benchMode(mode: Mode, baseline: RunningProcess, lean: RunningProcess): Promise<ModeResult> {
  await mode.prepare();
  const env = { ...mode.env, SECRET_KEY, NODE_ENV: 'production', LOG_LEVEL: 'info' };
  let service = await startService(mode.port, env);
  try {
    const session = await signUp(service.baseUrl);
    // The replay data loads after boot; "after boot" is measured once it has.
    await timed(session, '/api/v1/market/stock/AAPL');
    const afterBootRssMb = memoryOf(service.pid).rssMb;
    console.error(`${mode.label}: seeding`);
    await seedPortfolio(session);

    const passes: PassResult[] = [];
    for (let pass = 1; pass <= PASSES; pass += 1) {
      passes.push(await runPass(service, baseline, session, `${mode.label}, pass ${pass}`));
      console.log(`\n${mode.label}, pass ${pass}\n\n${passTable(passes[passes.length - 1])}`);
    }
    let light: LightResult | undefined;
    if (LIGHT_ROUNDS > 0) {
      light = await compareLightRoutes({ service, lean, bare: baseline }, session.accessToken, {
        rounds: LIGHT_ROUNDS,
        warmupSeconds: WARMUP_SECONDS,
        seconds: SECONDS,
      });
    }
    const { peakMb } = memoryOf(service.pid);
    const childRssMb = descendantsRssMb(service.pid);

    const firstRequests: FirstRequest[] = [];
    if (PASSES === 0)
      return {
        label: mode.label,
        passes,
        afterBootRssMb,
        peakRssMb: peakMb,
        childRssMb,
        firstRequests,
        light,
      };
    for (const route of FIRST_REQUEST_ROUTES) {
      await recordTrade(session);
      const firstMs = await timed(session, route.path);
      firstRequests.push({ name: `${route.name}, after a ledger write`, firstMs, warmMs: 0 });
    }
    for (const route of FIRST_REQUEST_ROUTES) {
      await service.stop();
      service = await startService(mode.port, env);
      const firstMs = await timed(session, route.path);
      firstRequests.push({ name: `${route.name}, after a restart`, firstMs, warmMs: 0 });
    }
    for (const entry of firstRequests) {
      const route = FIRST_REQUEST_ROUTES.find((each) => entry.name.startsWith(each.name))!;
      entry.warmMs = await warmMedian(session, route.path);
    }
    return { label: mode.label, passes, afterBootRssMb, peakRssMb: peakMb, childRssMb, firstRequests, light };
  } finally {
    await service.stop();
    await mode.cleanup();
  }
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  if (!process.env.BENCH_SKIP_BUILD) build();
  const modes = [embeddedMode(PORT_BASE + 10)];
  const { BENCH_DATABASE_URL, BENCH_REDIS_URL } = process.env;
  if (BENCH_DATABASE_URL && BENCH_REDIS_URL)
    modes.push(postgresMode(PORT_BASE + 20, BENCH_DATABASE_URL, BENCH_REDIS_URL));
  const baseline = await startBaseline(PORT_BASE, SECRET_KEY);
  const lean = await startLeanReference(PORT_BASE + 5, SECRET_KEY);
  const results: ModeResult[] = [];
  try {
    for (const mode of modes) results.push(await benchMode(mode, baseline, lean));
  } finally {
    await baseline.stop();
    await lean.stop();
  }
  const minutes = (Date.now() - startedAt) / 60_000;
  const report = [
    '# HTTP benchmark',
    '',
    `Run ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} (load average ` +
      `${loadavg()[0].toFixed(1)} at the end), Node ${process.version}, ${minutes.toFixed(1)} minutes. ` +
      `Each route: ${WARMUP_SECONDS} s warm-up, then ${SECONDS} s measured with autocannon; ${PASSES} passes, ` +
      `then ${LIGHT_ROUNDS} interleaved rounds of the light routes against the lean NestJS reference. ` +
      'CPU/request is the server process tree’s user + system time from /proc over the measured run ' +
      '(until the server is idle again) divided by the requests sent. Logging at info level, NODE_ENV=production.',
    '',
    ...results.map(modeSection),
  ].join('\n');
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(join(__dirname, 'results', 'http.md'), report);
  for (const result of results) console.log(`\n${modeSection(result)}`);
  console.log(`\nwritten to bench/results/http.md (${minutes.toFixed(1)} minutes)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
