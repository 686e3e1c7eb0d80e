// The service's memory under the mixed load of issue 23: the built service on a fresh embedded
// database, 10 users with 200 trades each (imported through the API), then 5 passes in which every
// user loads the light, market, news and portfolio routes in turn over 2 connections of their own.
// The resident set (VmRSS of the service process; the embedded database's processes are apart) is
// sampled every 100 ms: after boot, the lowest reading within each pass and the reading after each.
//
// MEMORY_PASS_SECONDS (default 15), MEMORY_PASSES (5), MEMORY_BOOT_IDLE_SECONDS (40: the idle time
// before "after boot" is read) and BENCH_PORT_BASE (7500; the service at +40) tune it. MEMORY_PROFILE_DIR=<dir> starts the service with `--heap-prof` and writes a heap
// snapshot after boot and after each pass there (`npx tsx bench/memory/heap-summary.ts <file>`
// lists what a snapshot holds); the figures are then not the plain service's. The service runs with
// the V8 flags of `npm start`; MEMORY_NODE_OPTIONS adds Node/V8 flags after them; MEMORY_SKIP_BUILD=1 uses dist/ as it is.
import autocannon from 'autocannon';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { settled } from './http/load';
import { embeddedMode } from './http/modes';
import { memoryOf, processCpuSeconds } from './http/proc-stats';
import { sentimentTexts } from './http/routes';
import { currentPrices, HELD_SYMBOLS, seedPortfolio, Session, signUp } from './http/seed';
import { ROOT, SERVICE_NODE_FLAGS, SERVICE_START_ENV, startService } from './http/service';

const PASS_SECONDS = Number(process.env.MEMORY_PASS_SECONDS ?? 15);
const PASSES = Number(process.env.MEMORY_PASSES ?? 5);
const PORT = Number(process.env.BENCH_PORT_BASE ?? 7500) + 40;
const PROFILE_DIR = process.env.MEMORY_PROFILE_DIR;
const BOOT_IDLE_SECONDS = Number(process.env.MEMORY_BOOT_IDLE_SECONDS ?? 40);
const USERS = 10;
const TRADES_PER_USER = 200;
const CONNECTIONS_PER_USER = 2;
const SAMPLE_MS = 100;

const TARGETS = {
  afterBootMb: 150,
  afterLastPassMb: 300,
  lowestGrowth: 0.05,
  peak: (afterBootMb: number) => 1.5 * afterBootMb + 150,
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One user's rotation over the routes: each of the user's connections walks it in order. */
function mixedRequests(session: Session, index: number): autocannon.Request[] {
  const headers = { authorization: `Bearer ${session.accessToken}` };
  const json = { ...headers, 'content-type': 'application/json' };
  const symbol = (offset: number) => HELD_SYMBOLS[(index * 5 + offset) % HELD_SYMBOLS.length];
  const batch = Array.from({ length: 10 }, (_, offset) => symbol(offset)).join(',');
  const get = (path: string): autocannon.Request => ({ method: 'GET', path: `/api/v1${path}`, headers });
  return [
    get('/auth/me'),
    get('/preferences/'),
    get(`/market/stock/${symbol(0)}`),
    get(`/market/stock/${symbol(1)}`),
    get(`/market/stocks/batch?symbols=${batch}`),
    get('/market/summary'),
    get(`/market/stock/${symbol(2)}/history`),
    get('/market/news'),
    get('/news/?limit=50'),
    {
      method: 'POST',
      path: '/api/v1/news/sentiment',
      headers: json,
      body: JSON.stringify({ texts: sentimentTexts().slice(0, 20 + index) }),
    },
    get('/portfolio/transactions'),
    get('/portfolio/positions'),
    get('/portfolio/summary'),
    get('/portfolio/risk-metrics'),
    get('/portfolio/'),
  ];
}

/** What V8 reports at a moment (prom-client's default metrics): the heap it has and uses, and memory outside it. */
interface V8Memory {
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
}

const METRICS_TOKEN = randomBytes(16).toString('hex');

/** Read over a connection of its own: a kept-alive one would be closed by the server while the service idles. */
function metricsText(baseUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = get(
      `${baseUrl}/metrics`,
      { agent: false, headers: { authorization: `Bearer ${METRICS_TOKEN}` } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve(text));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

async function v8MemoryOf(baseUrl: string): Promise<V8Memory> {
  const text = await metricsText(baseUrl);
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1048576;
  return {
    heapUsedMb: read('nodejs_heap_size_used_bytes'),
    heapTotalMb: read('nodejs_heap_size_total_bytes'),
    externalMb: read('nodejs_external_memory_bytes'),
  };
}

interface Pass {
  v8: V8Memory;
  /** CPU time of the service process alone (not the database's) per request of the pass, µs. */
  cpuPerRequestUs: number;
  lowestMb: number;
  highestMb: number;
  afterMb: number;
  requests: number;
  failures: number;
  /** What the failures were: statuses other than 2xx, errors and timeouts, with their counts. */
  failureKinds: string;
}

function failureKindsOf(results: autocannon.Result[]): string {
  const counts = new Map<string, number>();
  const add = (kind: string, count: number) => count > 0 && counts.set(kind, (counts.get(kind) ?? 0) + count);
  for (const result of results) {
    for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {}))
      if (!status.startsWith('2')) add(`HTTP ${status}`, count ?? 0);
    add('errors', result.errors);
    add('timeouts', result.timeouts);
  }
  return [...counts].map(([kind, count]) => `${count} × ${kind}`).join(', ');
}

async function runPass(pid: number, baseUrl: string, sessions: Session[]): Promise<Pass> {
  let lowestMb = Infinity;
  let highestMb = 0;
  let exited = false;
  const cpuBefore = processCpuSeconds(pid);
  const sampler = setInterval(() => {
    if (!existsSync(`/proc/${pid}/status`)) {
      exited = true;
      return;
    }
    const { rssMb } = memoryOf(pid);
    lowestMb = Math.min(lowestMb, rssMb);
    highestMb = Math.max(highestMb, rssMb);
  }, SAMPLE_MS);
  try {
    const results = await Promise.all(
      sessions.map((session, index) =>
        autocannon({
          url: baseUrl,
          connections: CONNECTIONS_PER_USER,
          duration: PASS_SECONDS,
          timeout: 30,
          requests: mixedRequests(session, index),
        }),
      ),
    );
    if (exited || !existsSync(`/proc/${pid}/status`)) throw new Error('the service exited during the pass');
    const afterMb = memoryOf(pid).rssMb;
    const requests = results.reduce((sum, result) => sum + result.requests.total, 0);
    return {
      cpuPerRequestUs: ((processCpuSeconds(pid) - cpuBefore) / Math.max(1, requests)) * 1e6,
      v8: await v8MemoryOf(baseUrl),
      lowestMb,
      highestMb: Math.max(highestMb, afterMb),
      afterMb,
      requests,
      failures: results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0),
      failureKinds: failureKindsOf(results),
    };
  } finally {
    clearInterval(sampler);
  }
}

function snapshot(pid: number, label: string): Promise<void> {
  if (!PROFILE_DIR) return Promise.resolve();
  const before = new Set(readdirSync(PROFILE_DIR));
  process.kill(pid, 'SIGWINCH');
  console.error(`  heap snapshot ${label} requested`);
  // The file appears empty when the service starts writing it: wait until it stops growing.
  return (async () => {
    let file: string | undefined;
    while (!(file = readdirSync(PROFILE_DIR).find((name) => !before.has(name)))) await pause(200);
    let size = -1;
    while (size !== (size = statSync(join(PROFILE_DIR, file)).size) || size === 0) await pause(1000);
    await settled(pid);
  })();
}

/**
 * A sign-up, again once should the connection fail: after the idle wait, fetch may reuse a kept-alive
 * connection the service is closing at that moment (an error before any answer; the retry is another user).
 */
async function signUpOnce(baseUrl: string, tag: string): Promise<Session> {
  try {
    return await signUp(baseUrl, tag);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    console.error(`  sign-up: ${String(error.cause ?? error)}; once more`);
    return signUp(baseUrl, `${tag}-again`);
  }
}

const mb = (value: number) => `${value.toFixed(0)} MB`;
const v8Text = (v8: V8Memory) =>
  `V8 heap ${mb(v8.heapUsedMb)} used of ${mb(v8.heapTotalMb)}, external ${mb(v8.externalMb)}`;
const v8Cells = (v8: V8Memory) => `${mb(v8.heapUsedMb)} / ${mb(v8.heapTotalMb)} | ${mb(v8.externalMb)}`;
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

async function main(): Promise<void> {
  const startedAt = Date.now();
  if (!process.env.MEMORY_SKIP_BUILD) {
    const built = spawnSync('npm', ['run', 'build:api'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build:api failed');
  }
  const mode = embeddedMode(PORT);
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  const nodeOptions = [
    ...(process.env.MEMORY_NODE_OPTIONS?.split(' ').filter(Boolean) ?? []),
    ...(PROFILE_DIR
      ? ['--heap-prof', '--heapsnapshot-signal=SIGWINCH', `--diagnostic-dir=${PROFILE_DIR}`]
      : []),
  ];
  const env = {
    ...mode.env,
    SECRET_KEY: randomBytes(32).toString('hex'),
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    METRICS_TOKEN,
  };
  const service = await startService(PORT, env, nodeOptions);
  try {
    // The replay data and the assistant's vocabulary load in the background after boot, and
    // once they have the service runs V8's memory-reducing collection (src/bootstrap/reduce-memory.ts).
    // "After boot" is what an idle replica holds: read after BOOT_IDLE_SECONDS, before anyone
    // signed up; the reading once the warm-ups were done is reported beside it.
    await pause(2000);
    await settled(service.pid);
    const bootedMb = memoryOf(service.pid).rssMb;
    const bootedV8 = await v8MemoryOf(service.baseUrl);
    console.error(`warm-ups done: ${mb(bootedMb)} (${v8Text(bootedV8)})`);
    await pause(BOOT_IDLE_SECONDS * 1000);
    const afterBootMb = memoryOf(service.pid).rssMb;
    const afterBootV8 = await v8MemoryOf(service.baseUrl);
    console.error(`after boot, idle ${BOOT_IDLE_SECONDS} s: ${mb(afterBootMb)} (${v8Text(afterBootV8)})`);
    await snapshot(service.pid, 'after boot');

    const sessions: Session[] = [];
    for (let index = 0; index < USERS; index += 1)
      sessions.push(await signUpOnce(service.baseUrl, `-${index}`));
    const [first] = sessions;
    const prices = await currentPrices(first);
    for (const [index, session] of sessions.entries())
      await seedPortfolio(session, { trades: TRADES_PER_USER, seed: 100 + index, prices });
    console.error(`seeded ${USERS} users with ${TRADES_PER_USER} trades each`);

    const passes: Pass[] = [];
    for (let pass = 1; pass <= PASSES; pass += 1) {
      passes.push(await runPass(service.pid, service.baseUrl, sessions));
      const last = passes[passes.length - 1];
      console.error(
        `pass ${pass}: lowest ${mb(last.lowestMb)}, after ${mb(last.afterMb)}, highest ${mb(last.highestMb)}, ` +
          `${v8Text(last.v8)}, ${last.requests} requests, ${last.cpuPerRequestUs.toFixed(0)} µs CPU each, ${last.failures} failed${last.failureKinds ? ` (${last.failureKinds})` : ''} (load average ${loadavg()[0].toFixed(1)})`,
      );
      await snapshot(service.pid, `after pass ${pass}`);
    }
    const peakMb = memoryOf(service.pid).peakMb;
    const last = passes[passes.length - 1];
    const secondLowest = passes[Math.min(1, passes.length - 1)].lowestMb;
    const growth = last.lowestMb / secondLowest - 1;
    const failures = passes.reduce((sum, pass) => sum + pass.failures, 0);
    const checks = [
      `after boot ${mb(afterBootMb)} ≤ ${TARGETS.afterBootMb} MB: ${verdict(afterBootMb <= TARGETS.afterBootMb)}`,
      `after pass ${passes.length} ${mb(last.afterMb)} ≤ ${TARGETS.afterLastPassMb} MB: ${verdict(last.afterMb <= TARGETS.afterLastPassMb)}`,
      `lowest reading, pass 2 → ${passes.length}: ${mb(secondLowest)} → ${mb(last.lowestMb)} ` +
        `(${(growth * 100).toFixed(1)} %) ≤ ${TARGETS.lowestGrowth * 100} %: ${verdict(growth <= TARGETS.lowestGrowth)}`,
      `peak (VmHWM) ${mb(peakMb)} ≤ 1.5 × after boot + 150 MB = ${mb(TARGETS.peak(afterBootMb))}: ${verdict(peakMb <= TARGETS.peak(afterBootMb))}`,
      `failed requests: ${failures}${failures > 0 ? ' (NOT met: every answer must be 2xx)' : ''}`,
    ];
    const minutes = (Date.now() - startedAt) / 60_000;
    const report = [
      '# Memory benchmark',
      '',
      `Run ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} (load average ` +
        `${loadavg()
          .map((value) => value.toFixed(1))
          .join(', ')} at the end), Node ${process.version}, ` +
        `${minutes.toFixed(1)} minutes. Embedded database, NODE_ENV=production, logging at info level. ` +
        `${USERS} users with ${TRADES_PER_USER} trades each; ${PASSES} passes of ${PASS_SECONDS} s, each user ` +
        `on ${CONNECTIONS_PER_USER} connections walking the light, market, news and portfolio routes in turn. ` +
        `Resident set of the service process sampled every ${SAMPLE_MS} ms.` +
        ` Node options: ${[...SERVICE_NODE_FLAGS, ...nodeOptions].join(' ') || 'none'}` +
        `${Object.entries(SERVICE_START_ENV)
          .map(([name, value]) => `, ${name}=${value}`)
          .join('')}.` +
        (PROFILE_DIR ? ' Run under --heap-prof with heap snapshots between passes.' : ''),
      '',
      '| | lowest in pass | after pass | highest in pass | V8 heap used / total after | external after | requests | CPU per request | failed |',
      '|---|---|---|---|---|---|---|---|---|',
      `| warm-ups done | | ${mb(bootedMb)} | | ${v8Cells(bootedV8)} | | | |`,
      `| after boot (idle ${BOOT_IDLE_SECONDS} s) | | ${mb(afterBootMb)} | | ${v8Cells(afterBootV8)} | | | |`,
      ...passes.map(
        (pass, index) =>
          `| pass ${index + 1} | ${mb(pass.lowestMb)} | ${mb(pass.afterMb)} | ${mb(pass.highestMb)} | ${v8Cells(pass.v8)} | ` +
          `${pass.requests.toLocaleString('en-US')} | ${pass.cpuPerRequestUs.toFixed(0)} µs | ${pass.failures} |`,
      ),
      '',
      ...checks.map((check) => `- ${check}`),
      '',
    ].join('\n');
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    writeFileSync(join(__dirname, 'results', 'memory.md'), report);
    console.log(`\n${report}\nwritten to bench/results/memory.md`);
  } finally {
    await service.stop();
    await mode.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
