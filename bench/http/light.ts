// The light routes against the lean NestJS reference (issue 23): in each round, the bare baseline,
// then every light route on the reference and on the service one after the other (the reference
// first in odd rounds, the service first in even ones), then the news list, batch quotes and
// sentiment scoring on the service, then both processes idle side by side. The machine's drift (its
// speed varies up to 2× between 10-second runs) thus falls on both alike, and the targets are judged
// on the median of the per-round ratios rather than on a ratio of medians taken from different rounds.
import { LoadFigures, LoadTarget, measure } from './load';
import { cpuSeconds } from './proc-stats';
import { benchRoutes, routeRequest } from './routes';
import { RunningProcess } from './service';

export const LIGHT_TARGETS = { maxCpuRatio: 1.3, minRpsRatio: 0.75, maxP99Ratio: 1.25 };

export const LIGHT_ROUTES = [
  { name: 'GET /auth/me', path: '/api/v1/auth/me' },
  { name: 'GET /market/stock/MSFT (cached)', path: '/api/v1/market/stock/MSFT' },
  { name: 'GET /preferences/', path: '/api/v1/preferences/' },
];

/** The service's figure over the reference's, in one round or as the median over the rounds. */
export interface LightRatios {
  cpu: number;
  /** CPU per request with each process tree's idle CPU over the measured window taken off. */
  cpuWithoutIdle: number;
  requestsPerSecond: number;
  p99: number;
}

export interface LightRow {
  name: string;
  /** Each side's median over the rounds. */
  service: LoadFigures;
  lean: LoadFigures;
  byRound: LightRatios[];
  /** Medians of the per-round ratios: what the targets are judged on. */
  ratios: LightRatios;
}

/** Judged against the lean reference's quote route (≤ 2 ×), sentiment against 2 ms of CPU. */
const MEDIUM_ROUTES = benchRoutes().filter((route) => /news|batch|sentiment/.test(route.name));

export interface MediumRow {
  name: string;
  service: LoadFigures;
}

/** Idle CPU of each process tree, ms per second, over every round's idle sample. */
export interface IdleCpu {
  service: number;
  lean: number;
  sampledSeconds: number;
}

export interface LightResult {
  rounds: number;
  bare: LoadFigures;
  idle: IdleCpu;
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
    sent: median(runs.map((run) => run.sent)),
    cpuWindowSeconds: median(runs.map((run) => run.cpuWindowSeconds)),
  };
}

const IDLE_SAMPLE_SECONDS = 3;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds each process tree used over the same idle interval. */
async function idleSample(pids: {
  service: number;
  lean: number;
}): Promise<{ service: number; lean: number }> {
  const before = { service: cpuSeconds(pids.service), lean: cpuSeconds(pids.lean) };
  await pause(IDLE_SAMPLE_SECONDS * 1000);
  return { service: cpuSeconds(pids.service) - before.service, lean: cpuSeconds(pids.lean) - before.lean };
}

/** CPU per request less what the process tree would have used idle over the measured window. */
function withoutIdle(figures: LoadFigures, idleMsPerSecond: number): number {
  return Math.max(0, figures.cpuMsPerRequest - (idleMsPerSecond * figures.cpuWindowSeconds) / figures.sent);
}

function ratiosOf(service: LoadFigures, lean: LoadFigures, idle: IdleCpu): LightRatios {
  return {
    cpu: service.cpuMsPerRequest / lean.cpuMsPerRequest,
    cpuWithoutIdle: withoutIdle(service, idle.service) / withoutIdle(lean, idle.lean),
    requestsPerSecond: service.requestsPerSecond / lean.requestsPerSecond,
    p99: service.p99Ms / lean.p99Ms,
  };
}

function medianRatios(rounds: LightRatios[]): LightRatios {
  const keys = ['cpu', 'cpuWithoutIdle', 'requestsPerSecond', 'p99'] as const;
  return Object.fromEntries(keys.map((key) => [key, median(rounds.map((round) => round[key]))])) as Record<
    (typeof keys)[number],
    number
  >;
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
  const idleUsed = { service: 0, lean: 0 };
  for (let round = 1; round <= options.rounds; round += 1) {
    bare.push(await load(processes.bare, '/api/v1/auth/me'));
    const sides = round % 2 === 1 ? (['lean', 'service'] as const) : (['service', 'lean'] as const);
    for (const [index, route] of LIGHT_ROUTES.entries()) {
      for (const side of sides) runs[index][side].push(await load(processes[side], route.path));
    }
    for (const [index, route] of MEDIUM_ROUTES.entries()) {
      mediumRuns[index].push(
        await loadTarget(processes.service, routeRequest(processes.service.baseUrl, route, accessToken)),
      );
    }
    const used = await idleSample({ service: processes.service.pid, lean: processes.lean.pid });
    idleUsed.service += used.service;
    idleUsed.lean += used.lean;
    console.error(`  light routes: round ${round} of ${options.rounds} done`);
  }
  const sampledSeconds = options.rounds * IDLE_SAMPLE_SECONDS;
  const idle: IdleCpu = {
    service: (1000 * idleUsed.service) / sampledSeconds,
    lean: (1000 * idleUsed.lean) / sampledSeconds,
    sampledSeconds,
  };
  return {
    rounds: options.rounds,
    bare: medianFigures(bare),
    idle,
    rows: LIGHT_ROUTES.map((route, index) => {
      const { service, lean } = runs[index];
      const byRound = service.map((figures, round) => ratiosOf(figures, lean[round], idle));
      return {
        name: route.name,
        service: medianFigures(service),
        lean: medianFigures(lean),
        byRound,
        ratios: medianRatios(byRound),
      };
    }),
    medium: MEDIUM_ROUTES.map((route, index) => ({
      name: route.name,
      service: medianFigures(mediumRuns[index]),
    })),
  };
}

const thousands = (value: number) => Math.round(value).toLocaleString('en-US');
const micros = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

/** Which targets a row misses (empty when all are met), on the medians of the per-round ratios. */
export function lightMisses(row: LightRow): string[] {
  const missed: string[] = [];
  if (row.service.failures > 0 || row.lean.failures > 0) missed.push('failures');
  if (row.ratios.cpu > LIGHT_TARGETS.maxCpuRatio) missed.push('CPU');
  if (row.ratios.requestsPerSecond < LIGHT_TARGETS.minRpsRatio) missed.push('req/s');
  if (row.ratios.p99 > LIGHT_TARGETS.maxP99Ratio) missed.push('p99');
  return missed;
}

export function lightTable(result: LightResult): string {
  const { bare, idle } = result;
  const lines = [
    `${result.rounds} interleaved rounds, 32 connections; each side's figures are its median over the rounds, the ` +
      `ratios the medians of the per-round ratios. Targets: CPU ≤ ${LIGHT_TARGETS.maxCpuRatio} × the ` +
      `lean reference's, req/s ≥ ${LIGHT_TARGETS.minRpsRatio} ×, p99 ≤ ${LIGHT_TARGETS.maxP99Ratio} ×; ` +
      `bare Fastify + JWT (${thousands(bare.requestsPerSecond)} req/s, p99 ${bare.p99Ms.toFixed(0)} ms, ` +
      `${micros(bare.cpuMsPerRequest)}) for information. Idle, over ${idle.sampledSeconds} s sampled after the ` +
      `rounds, the service's process tree used ${idle.service.toFixed(1)} ms of CPU a second and the reference's ` +
      `${idle.lean.toFixed(1)} ms; "without idle" takes that off each side's CPU over its measured window ` +
      '(for information: the targets are on the raw CPU).',
    '',
    '| route | service: req/s | p99 | CPU/request | lean reference: req/s | p99 | CPU/request | CPU × lean | req/s × lean | p99 × lean | CPU × lean without idle | CPU × lean by round | CPU × bare | met |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of result.rows) {
    const { service, lean, ratios } = row;
    const missed = lightMisses(row);
    lines.push(
      `| ${row.name} | ${thousands(service.requestsPerSecond)} | ${service.p99Ms.toFixed(0)} ms | ${micros(service.cpuMsPerRequest)} | ` +
        `${thousands(lean.requestsPerSecond)} | ${lean.p99Ms.toFixed(0)} ms | ${micros(lean.cpuMsPerRequest)} | ` +
        `${ratios.cpu.toFixed(2)} | ${ratios.requestsPerSecond.toFixed(2)} | ${ratios.p99.toFixed(2)} | ` +
        `${ratios.cpuWithoutIdle.toFixed(2)} | ${row.byRound.map((round) => round.cpu.toFixed(2)).join(', ')} | ` +
        `${(service.cpuMsPerRequest / bare.cpuMsPerRequest).toFixed(1)} | ` +
        `${missed.length === 0 ? 'met' : `NOT met (${missed.join(', ')})`} |`,
    );
  }
  return lines.join('\n');
}
