// Login spraying, over HTTP: 2,000 wrong-password logins for different emails from one client
// address, SPRAY_CONCURRENCY at a time, while one real user logs in from addresses of their own.
// Prints how the spray was answered (401 while the address may still try, 429 after) and the real
// user's login p50/p99 against the same user's measured in this run with nothing else running.
// The operations issue measured 71 → 383 ms (5.4 ×) with no limit; there is no budget: a spray
// refused with 429 still costs each request's trip through the service (see docs/operations.md).
//
// The service runs on a fresh embedded database behind a pretend proxy (TRUST_PROXY=1, each client
// address sent in X-Forwarded-For), with the default limits. BENCH_PORT_BASE (7700) moves its port.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { build, embeddedMode } from './http/modes';
import { signUp } from './http/seed';
import { startService } from './http/service';

const SPRAY_ATTEMPTS = 2_000;
const SPRAY_CONCURRENCY = 8;
const USER_LOGINS = 40;
const PORT = Number(process.env.BENCH_PORT_BASE ?? 7700);

function percentile(timings: readonly number[], fraction: number): number {
  const sorted = [...timings].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

async function login(baseUrl: string, address: string, email: string, password: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    body: `username=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`,
  });
  await response.arrayBuffer();
  return response.status;
}

/** USER_LOGINS logins of the real user, one at a time, each from an address of its own. */
async function userLogins(
  baseUrl: string,
  email: string,
  password: string,
  round: number,
): Promise<number[]> {
  const timings: number[] = [];
  for (let n = 0; n < USER_LOGINS; n += 1) {
    const started = performance.now();
    const status = await login(baseUrl, `10.${round}.${n >> 8}.${n & 255}`, email, password);
    if (status !== 200) throw new Error(`the real user's login answered ${status}`);
    timings.push(performance.now() - started);
  }
  return timings;
}

async function spray(baseUrl: string): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: SPRAY_CONCURRENCY }, async () => {
      while (next < SPRAY_ATTEMPTS) {
        const attempt = (next += 1);
        const status = await login(
          baseUrl,
          '203.0.113.66',
          `sprayed${attempt}@example.com`,
          'wrong-password',
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return statuses;
}

async function main(): Promise<void> {
  build();
  const mode = embeddedMode(PORT);
  await mode.prepare();
  const service = await startService(mode.port, {
    ...mode.env,
    SECRET_KEY: 'login-spray-bench-secret-key-of-enough-length',
    NODE_ENV: 'production',
    TRUST_PROXY: '1',
  });
  try {
    const { email, password } = await signUp(service.baseUrl);
    const idle = await userLogins(service.baseUrl, email, password, 1);
    const [during, statuses] = await Promise.all([
      userLogins(service.baseUrl, email, password, 2),
      spray(service.baseUrl),
    ]);
    const ratio = percentile(during, 0.99) / percentile(idle, 0.99);
    const row = (name: string, timings: number[]) =>
      `| ${name} | ${timings.length} | ${percentile(timings, 0.5).toFixed(1)} | ${percentile(timings, 0.99).toFixed(1)} |`;
    console.log(
      [
        '# Login spray',
        '',
        `Run ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} (load average ` +
          `${loadavg()[0].toFixed(1)} at the end), embedded database.`,
        '',
        '| real user logging in | n | p50 ms | p99 ms |',
        '|---|---|---|---|',
        row('nothing else running', idle),
        row(`during ${SPRAY_ATTEMPTS.toLocaleString('en-US')} sprayed logins from one address`, during),
        '',
        `Spray answered: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(', ')}.`,
        `Real user's p99 during / idle: ${ratio.toFixed(2)} ×.`,
      ].join('\n'),
    );
  } finally {
    await service.stop();
    await mode.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
