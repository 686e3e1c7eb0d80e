import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { testServiceEnv } from '../setup/test-app';

const ROOT = join(__dirname, '..', '..');
const BOOT_WITHIN_MS = 60_000;
const STOP_WITHIN_MS = 20_000;

/** The service running as a process of its own, reached over HTTP. */
export interface ServiceProcess {
  url: string;
  /** What the process printed so far, for failure messages. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited in time. */
  stop(): Promise<void>;
}

/**
 * Starts the service from source in a child process. Two instances that must not share anything
 * but the database and Redis need this: Nest apps in one process share passport's strategy
 * registry, so the last app created would authenticate the requests of every other one.
 */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const { PATH, HOME } = process.env;
  const child = spawn(process.execPath, ['--require', 'ts-node/register/transpile-only', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH,
      HOME,
      ...testServiceEnv(),
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_WITHIN_MS);
    await exited;
    clearTimeout(timer);
  };

  const deadline = performance.now() + BOOT_WITHIN_MS;
  for (;;) {
    const health = await fetch(`${url}/api/v1/system/health`, { signal: AbortSignal.timeout(2_000) }).catch(
      () => null,
    );
    if (health?.status === 200) break;
    if (child.exitCode !== null || performance.now() > deadline) {
      await stop();
      throw new Error(`The service did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, output: () => output, stop };
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('No TCP port');
  return address.port;
}
