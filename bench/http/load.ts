// One autocannon run against one route, with the server's CPU time over it read from /proc.
import autocannon from 'autocannon';
import { cpuSeconds } from './proc-stats';

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU per request sent, ms (requests cut off at the end are served and counted). */
  cpuMsPerRequest: number;
  /** Answers that were not 2xx, plus connection errors and timeouts. */
  failures: number;
  /** Requests sent, and the wall time over which the CPU was read (the run, then until the server was idle). */
  sent: number;
  cpuWindowSeconds: number;
}

export interface LoadTarget {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the server has used less than one clock tick over 100 ms, twice in a row. */
export async function settled(pid: number): Promise<void> {
  let quietSamples = 0;
  let previous = cpuSeconds(pid);
  const deadline = Date.now() + 20_000;
  while (quietSamples < 2 && Date.now() < deadline) {
    await pause(100);
    const now = cpuSeconds(pid);
    quietSamples = now - previous <= 0.01 ? quietSamples + 1 : 0;
    previous = now;
  }
}

/** `seconds` of load on the target, unmeasured. */
export function run(target: LoadTarget, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections: target.connections,
    duration: seconds,
    timeout: 30,
  });
}

/** A warm-up run, then the measured one; the server is let settle before and after each. */
export async function measure(
  pid: number,
  target: LoadTarget,
  warmupSeconds: number,
  seconds: number,
): Promise<LoadFigures> {
  if (warmupSeconds > 0) await run(target, warmupSeconds);
  await settled(pid);
  const cpuBefore = cpuSeconds(pid);
  const windowStart = performance.now();
  const result = await run(target, seconds);
  await settled(pid);
  const cpu = cpuSeconds(pid) - cpuBefore;
  const cpuWindowSeconds = (performance.now() - windowStart) / 1000;
  const sent = Math.max(1, result.requests.sent);
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMsPerRequest: (cpu * 1000) / sent,
    failures: result.non2xx + result.errors + result.timeouts,
    sent,
    cpuWindowSeconds,
  };
}
