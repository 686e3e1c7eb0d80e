// The light routes against the lean NestJS reference (issue 23): in each round, the bare baseline,
// then every light route on the reference and on the service one after the other, then the news
// list, batch quotes and sentiment scoring on the service, so that the machine's drift (its speed
// varies up to 2× between 10-second runs) falls on all alike. The figures compared are each side's
// median over the rounds.
import { LoadFigures, LoadTarget, measure } from './load';
import { benchRoutes, routeRequest } from './routes';
import { RunningProcess } from './service';

export const LIGHT_TARGETS = { maxCpuRatio: 1.3, minRpsRatio: 0.75, maxP99Ratio: 1.25 };

export const LIGHT_ROUTES = [
  { name: 'GET /auth/me', path: '/api/v1/auth/me' },
  { name: 'GET /market/stock/MSFT (cached)', path: '/api/v1/market/stock/MSFT' },
  { name: 'GET /preferences/', path: '/api/v1/preferences/' },
];

export interface LightRow {
  name: string;
  service: LoadFigures;
  lean: LoadFigures;
}

/** Judged against the lean reference's quote route (≤ 2 ×), sentiment against 2 ms of CPU. */
const MEDIUM_ROUTES = benchRoutes().filter((route) => /news|batch|sentiment/.test(route.name));

export interface MediumRow {
  name: string;
  service: LoadFigures;
}

export interface LightResult {
  rounds: number;
  bare: LoadFigures;
  rows: LightRow[];
  medium: MediumRow[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function medianFigures(runs: LoadFigures[]): LoadFigures {
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    cpuMsPerRequest: median(runs.map((run) => run.cpuMsPerRequest)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
  };
}

export async function compareLightRoutes(
  processes: { service: RunningProcess; lean: RunningProcess; bare: RunningProcess },
  accessToken: string,
  options: { rounds: number; warmupSeconds: number; seconds: number },
): Promise<LightResult> {
  const headers = { authorization: `Bearer ${accessToken}` };
  const loadTarget = (target: RunningProcess, request: LoadTarget) =>
    measure(target.pid, request, options.warmupSeconds, options.seconds);
  const load = (target: RunningProcess, path: string) =>
    loadTarget(target, { url: `${target.baseUrl}${path}`, method: 'GET', headers, connections: 32 });
  const bare: LoadFigures[] = [];
  const runs = LIGHT_ROUTES.map(() => ({ service: [] as LoadFigures[], lean: [] as LoadFigures[] }));
  const mediumRuns = MEDIUM_ROUTES.map(() => [] as LoadFigures[]);
  for (let round = 1; round <= options.rounds; round += 1) {
    bare.push(await load(processes.bare, '/api/v1/auth/me'));
    for (const [index, route] of LIGHT_ROUTES.entries()) {
      runs[index].lean.push(await load(processes.lean, route.path));
      runs[index].service.push(await load(processes.service, route.path));
    }
    for (const [index, route] of MEDIUM_ROUTES.entries()) {
      mediumRuns[index].push(
        await loadTarget(processes.service, routeRequest(processes.service.baseUrl, route, accessToken)),
      );
    }
    console.error(`  light routes: round ${round} of ${options.rounds} done`);
  }
  return {
    rounds: options.rounds,
    bare: medianFigures(bare),
    rows: LIGHT_ROUTES.map((route, index) => ({
      name: route.name,
      service: medianFigures(runs[index].service),
      lean: medianFigures(runs[index].lean),
    })),
    medium: MEDIUM_ROUTES.map((route, index) => ({
      name: route.name,
      service: medianFigures(mediumRuns[index]),
    })),
  };
}

const thousands = (value: number) => Math.round(value).toLocaleString('en-US');
const micros = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

/** Which targets a row misses (empty when all are met). */
export function lightMisses(row: LightRow): string[] {
  const missed: string[] = [];
  if (row.service.failures > 0 || row.lean.failures > 0) missed.push('failures');
  if (row.service.cpuMsPerRequest > LIGHT_TARGETS.maxCpuRatio * row.lean.cpuMsPerRequest) missed.push('CPU');
  if (row.service.requestsPerSecond < LIGHT_TARGETS.minRpsRatio * row.lean.requestsPerSecond)
    missed.push('req/s');
  if (row.service.p99Ms > LIGHT_TARGETS.maxP99Ratio * row.lean.p99Ms) missed.push('p99');
  return missed;
}

export function lightTable(result: LightResult): string {
  const { bare } = result;
  const lines = [
    `Median of ${result.rounds} interleaved rounds, 32 connections. Targets: CPU ≤ ${LIGHT_TARGETS.maxCpuRatio} × the ` +
      `lean reference's, req/s ≥ ${LIGHT_TARGETS.minRpsRatio} ×, p99 ≤ ${LIGHT_TARGETS.maxP99Ratio} ×; ` +
      `bare Fastify + JWT (${thousands(bare.requestsPerSecond)} req/s, p99 ${bare.p99Ms.toFixed(0)} ms, ` +
      `${micros(bare.cpuMsPerRequest)}) for information.`,
    '',
    '| route | service: req/s | p99 | CPU/request | lean reference: req/s | p99 | CPU/request | CPU × lean | req/s × lean | p99 × lean | CPU × bare | met |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of result.rows) {
    const { service, lean } = row;
    const missed = lightMisses(row);
    lines.push(
      `| ${row.name} | ${thousands(service.requestsPerSecond)} | ${service.p99Ms.toFixed(0)} ms | ${micros(service.cpuMsPerRequest)} | ` +
        `${thousands(lean.requestsPerSecond)} | ${lean.p99Ms.toFixed(0)} ms | ${micros(lean.cpuMsPerRequest)} | ` +
        `${(service.cpuMsPerRequest / lean.cpuMsPerRequest).toFixed(2)} | ` +
        `${(service.requestsPerSecond / lean.requestsPerSecond).toFixed(2)} | ` +
        `${(service.p99Ms / lean.p99Ms).toFixed(2)} | ${(service.cpuMsPerRequest / bare.cpuMsPerRequest).toFixed(1)} | ` +
        `${missed.length === 0 ? 'met' : `NOT met (${missed.join(', ')})`} |`,
    );
  }
  return lines.join('\n');
}
