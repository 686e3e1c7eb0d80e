// Cold start of the whole service: `node dist/main.js` on the embedded database until the first
// 200 from the health route. The first boot runs initdb and is reported on its own; the budget is
// for a restart on an existing DATA_DIR. The baseline is a bare Node process that loads `pg`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { figureOf, reporter } from './bench-kit';

const ROOT = join(__dirname, '..');
const MAIN = join(ROOT, 'dist', 'main.js');
const RESTARTS = 7;
const BASELINE_RUNS = 7;
const BUDGET_MS = 3000;
const BOOT_TIMEOUT_MS = 60_000;

function ensureBuilt(): void {
  if (existsSync(MAIN)) return;
  console.log('dist/main.js is missing: building');
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function healthStatus(port: number): Promise<number> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/api/v1/system/health' }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', () => resolve(0));
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds from spawning the server to its first healthy answer; then stops it with SIGTERM. */
async function bootOnce(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let crashed = false;
  void exited.then(() => (crashed = true));
  try {
    while ((await healthStatus(port)) !== 200) {
      if (crashed) throw new Error('the server exited before answering');
      if (performance.now() - started > BOOT_TIMEOUT_MS) throw new Error('no healthy answer within 60 s');
      await pause(5);
    }
    return performance.now() - started;
  } finally {
    if (!crashed) child.kill('SIGTERM');
    await exited;
  }
}

function bareProcessMs(): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['-e', "require('pg')"], { cwd: ROOT });
  if (run.status !== 0) throw new Error('bare node process failed');
  return performance.now() - started;
}

async function main(): Promise<void> {
  ensureBuilt();
  const baseline = figureOf(Array.from({ length: BASELINE_RUNS }, bareProcessMs)).median;
  const dataDir = mkdtempSync(join(tmpdir(), 'ia-boot-bench-'));
  try {
    const firstBoot = await bootOnce(dataDir);
    const restarts: number[] = [];
    for (let run = 0; run < RESTARTS; run += 1) restarts.push(await bootOnce(dataDir));
    const report = reporter(0);
    console.log(
      `first boot (initdb): ${firstBoot.toFixed(0)} ms = ${(firstBoot / baseline).toFixed(1)}× baseline (no budget)`,
    );
    report(`restart to first healthy response (${RESTARTS} runs)`, figureOf(restarts), baseline, BUDGET_MS);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
