// The HTTP benchmark's tables, for the console and for bench/results/http.md.
import { LightResult, lightTable } from './light';
import { LoadFigures } from './load';
import { BenchRoute } from './routes';

export interface RouteResult {
  route: BenchRoute;
  figures: LoadFigures;
}

export interface PassResult {
  baseline: LoadFigures;
  routes: RouteResult[];
  rssMb: number;
}

export interface FirstRequest {
  name: string;
  firstMs: number;
  warmMs: number;
}

export interface ModeResult {
  label: string;
  passes: PassResult[];
  afterBootRssMb: number;
  peakRssMb: number;
  childRssMb: number;
  firstRequests: FirstRequest[];
  light?: LightResult;
}

const fixed = (value: number, digits: number) => value.toFixed(digits);
const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

function cpuLabel(ms: number): string {
  return ms < 1 ? `${fixed(ms * 1000, 0)} µs` : `${fixed(ms, ms < 10 ? 2 : 1)} ms`;
}

function budgetOf(route: BenchRoute): string {
  const { budget } = route;
  switch (budget.kind) {
    case 'light':
      return `CPU ≤ ${budget.maxCpuRatio}×, req/s ≥ ${budget.minRpsRatio}×, p99 ≤ ${budget.maxP99Ms} ms`;
    case 'medium':
      return `CPU ≤ ${budget.maxCpuRatio}×, p99 ≤ ${budget.maxP99Ms} ms`;
    case 'portfolio':
      return `CPU ≤ ${budget.maxCpuMs} ms, p99 ≤ ${budget.maxP99Ms} ms`;
  }
}

/** Which parts of the budget are missed (empty when met). */
function misses(result: RouteResult, baseline: LoadFigures): string[] {
  const { budget } = result.route;
  const { figures } = result;
  const missed: string[] = [];
  if (figures.failures > 0) missed.push(`${figures.failures} failed`);
  const cpuRatio = figures.cpuMsPerRequest / baseline.cpuMsPerRequest;
  if (budget.kind === 'portfolio') {
    if (figures.cpuMsPerRequest > budget.maxCpuMs) missed.push('CPU');
  } else if (cpuRatio > budget.maxCpuRatio) missed.push('CPU');
  if (budget.kind === 'light' && figures.requestsPerSecond < budget.minRpsRatio * baseline.requestsPerSecond)
    missed.push('req/s');
  if (figures.p99Ms > budget.maxP99Ms) missed.push('p99');
  return missed;
}

export function passTable(pass: PassResult): string {
  const { baseline } = pass;
  const rows = [
    '| route | conns | req/s | p50 | p99 | CPU/request | × baseline CPU | budget | met |',
    '|---|---|---|---|---|---|---|---|---|',
    `| bare Fastify + HS256 JWT (baseline) | 32 | ${thousands(baseline.requestsPerSecond)} | ${fixed(baseline.p50Ms, 0)} ms | ${fixed(baseline.p99Ms, 0)} ms | ${cpuLabel(baseline.cpuMsPerRequest)} | 1 | | |`,
  ];
  for (const result of pass.routes) {
    const { figures, route } = result;
    const missed = misses(result, baseline);
    rows.push(
      `| ${route.name} | ${route.connections} | ${thousands(figures.requestsPerSecond)} | ${fixed(figures.p50Ms, 0)} ms | ` +
        `${fixed(figures.p99Ms, 0)} ms | ${cpuLabel(figures.cpuMsPerRequest)} | ` +
        `${fixed(figures.cpuMsPerRequest / baseline.cpuMsPerRequest, 1)} | ${budgetOf(route)} | ` +
        `${missed.length === 0 ? 'met' : `NOT met (${missed.join(', ')})`} |`,
    );
  }
  return rows.join('\n');
}

/**
 * News and batch quotes against the lean reference's quote route (≤ 2 ×), and sentiment scoring of
 * 100 texts (≤ 2 ms of CPU), from the same interleaved rounds.
 */
function mediumLines(light: LightResult): string[] {
  const leanQuote = light.rows.find((row) => row.name.startsWith('GET /market/stock'))!.lean.cpuMsPerRequest;
  return light.medium.map(({ name, service }) => {
    const cpu = service.cpuMsPerRequest;
    const failures = service.failures > 0 ? ` (${service.failures} failures)` : '';
    if (name.includes('sentiment'))
      return `- ${name}: ${cpuLabel(cpu)} of CPU ≤ 2 ms: ${cpu <= 2 ? 'met' : 'NOT met'}${failures}`;
    const ratio = cpu / leanQuote;
    return `- ${name}: ${cpuLabel(cpu)} = ${fixed(ratio, 2)} × the lean reference's quote (${cpuLabel(leanQuote)}) ≤ 2 ×: ${ratio <= 2 ? 'met' : 'NOT met'}${failures}`;
  });
}

export function modeSection(mode: ModeResult): string {
  const lines = [`## ${mode.label}`, ''];
  for (const [index, pass] of mode.passes.entries()) {
    lines.push(`### Pass ${index + 1} of ${mode.passes.length}`, '', passTable(pass), '');
  }
  if (mode.light) {
    lines.push(
      '### Light routes against the lean NestJS reference',
      '',
      lightTable(mode.light),
      '',
      ...mediumLines(mode.light),
      '',
    );
  }
  if (mode.passes.length === 0) return lines.join('\n');
  const last = mode.passes[mode.passes.length - 1];
  const first = mode.passes[0];
  lines.push(
    '### Memory (service process)',
    '',
    '| after boot | after pass 1 | after the last pass | peak (VmHWM) | peak ÷ after boot | processes below it |',
    '|---|---|---|---|---|---|',
    `| ${fixed(mode.afterBootRssMb, 0)} MB | ${fixed(first.rssMb, 0)} MB | ${fixed(last.rssMb, 0)} MB | ` +
      `${fixed(mode.peakRssMb, 0)} MB | ${fixed(mode.peakRssMb / mode.afterBootRssMb, 2)} | ${fixed(mode.childRssMb, 0)} MB |`,
    '',
    'Targets: ≤ 350 MB after the benchmark, peak ≤ 1.5 × after boot, no growth from pass 1 to the last pass.',
    '',
    '### First request (sequential, one connection)',
    '',
    '| request | first | warm (median of 5) | first ÷ warm |',
    '|---|---|---|---|',
    ...mode.firstRequests.map(
      (entry) =>
        `| ${entry.name} | ${fixed(entry.firstMs, 1)} ms | ${fixed(entry.warmMs, 1)} ms | ${fixed(entry.firstMs / entry.warmMs, 1)} |`,
    ),
    '',
    'Target: the first request after a restart or a cache expiry ≤ 2 × warm and ≤ 300 ms.',
    '',
  );
  return lines.join('\n');
}
