// Processes the HTTP benchmark starts: the built service, the bare baseline and the lean reference, each on its own
// port on 127.0.0.1, with stderr kept for the error message should one of them die.
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
const START_TIMEOUT_MS = 120_000;

export interface RunningProcess {
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function statusOf(url: string): Promise<number> {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

async function started(
  child: ChildProcess,
  baseUrl: string,
  probePath: string,
  probeStatus: number,
): Promise<RunningProcess> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  let exited = false;
  let stopping = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      if (!stopping) console.error(`process ${child.pid} exited (${code ?? signal}):\n${stderr}`);
      resolve();
    }),
  );
  const startedAt = Date.now();
  while ((await statusOf(`${baseUrl}${probePath}`)) !== probeStatus) {
    if (exited) throw new Error(`the process exited before answering:\n${stderr}`);
    if (Date.now() - startedAt > START_TIMEOUT_MS) throw new Error(`no answer within 120 s:\n${stderr}`);
    await pause(50);
  }
  return {
    pid: child.pid!,
    baseUrl,
    async stop() {
      stopping = true;
      if (!exited) child.kill('SIGTERM');
      await exit;
    },
  };
}

const START_SCRIPT = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start.split(' ');

/** The V8 flags `npm start` (and the Docker image) run the service with: the benchmarks measure it as deployed. */
export const SERVICE_NODE_FLAGS: readonly string[] = START_SCRIPT.filter((word) => word.startsWith('--'));

/** The environment `npm start` (and the Docker image) set before `node`: the allocator's setting. */
export const SERVICE_START_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  START_SCRIPT.slice(0, START_SCRIPT.indexOf('node'))
    .map((word) => /^([A-Z_]+)=(.*)$/.exec(word))
    .filter((match) => match !== null)
    .map(([, name, value]) => [name, value]),
);

/**
 * `node [the start script's flags] [options] dist/main.js` with the start script's environment and
 * the given one, once its health route answers 200.
 */
export function startService(
  port: number,
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<RunningProcess> {
  const child = spawn(
    process.execPath,
    [...SERVICE_NODE_FLAGS, ...nodeOptions, join(ROOT, 'dist', 'main.js')],
    {
      cwd: ROOT,
      env: { ...process.env, ...SERVICE_START_ENV, ...env, PORT: String(port), HOST: '127.0.0.1' },
      // Request logs go to /dev/null: written, as in production, but not kept.
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return started(child, `http://127.0.0.1:${port}`, '/api/v1/system/health', 200);
}

/** The bare Fastify + JWT baseline, once it answers (401 without a token). */
export function startBaseline(port: number, secretKey: string): Promise<RunningProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'baseline-server.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), SECRET_KEY: secretKey },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return started(child, `http://127.0.0.1:${port}`, '/api/v1/auth/me', 401);
}

/** The lean NestJS reference (lean-server.ts), once it answers (401 without a token). */
export function startLeanReference(port: number, secretKey: string): Promise<RunningProcess> {
  const child = spawn(
    process.execPath,
    ['--require', 'ts-node/register/transpile-only', join(__dirname, 'lean-server.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), SECRET_KEY: secretKey, NODE_ENV: 'production' },
      // Its request log lines go to /dev/null, as the service's do.
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return started(child, `http://127.0.0.1:${port}`, '/api/v1/auth/me', 401);
}
