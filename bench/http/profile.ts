// Where the service spends a route's CPU: starts the built service under `node --cpu-prof` on a
// fresh embedded database, seeds the benchmark user, loads the routes whose name contains the
// argument for BENCH_SECONDS (default 10), stops the service and prints the heaviest functions and
// packages by self time. The profile stays in the directory printed at the end (open it in
// Chrome DevTools).  npx tsx bench/http/profile.ts "portfolio/summary"
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { benchRoutes, routeRequest } from './routes';
import { seedPortfolio, signUp } from './seed';
import { startService } from './service';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const pattern = process.argv[2] ?? '';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const port = Number(process.env.BENCH_PORT_BASE ?? 7500) + 30;

function packageOf(url: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  if (url.includes('/dist/'))
    return `service: ${url
      .slice(url.indexOf('/dist/') + 6)
      .split('/')
      .slice(0, 3)
      .join('/')}`;
  return url ? url.replace(/^node:/, 'node:') : '(native, GC, idle)';
}

function top(totals: Map<string, number>, all: number, count: number): string {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => `${((100 * micros) / all).toFixed(1).padStart(5)} %  ${name}`)
    .join('\n');
}

async function main(): Promise<void> {
  const profileDir = mkdtempSync(join(tmpdir(), 'ia-cpu-prof-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'ia-profile-'));
  const secret = randomBytes(32).toString('hex');
  const service = await startService(
    port,
    { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: secret, NODE_ENV: 'production' },
    ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
  );
  const session = await signUp(service.baseUrl);
  await seedPortfolio(session);
  for (const route of benchRoutes().filter((each) => each.name.includes(pattern))) {
    console.log(`loading ${route.name} for ${seconds} s`);
    await autocannon({ ...routeRequest(service.baseUrl, route, session.accessToken), duration: seconds });
  }
  await service.stop();
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, index) => {
    const { callFrame } = byId.get(id)!;
    if (callFrame.functionName === '(idle)') return;
    const micros = profile.timeDeltas[index] ?? 0;
    all += micros;
    const where = callFrame.url
      ? `${callFrame.url.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}`
      : '';
    const name = `${callFrame.functionName || '(anonymous)'} ${where}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    byPackage.set(packageOf(callFrame.url), (byPackage.get(packageOf(callFrame.url)) ?? 0) + micros);
  });
  console.log(
    `\nmain thread busy ${(all / 1e6).toFixed(1)} s\n\nby package (self time)\n${top(byPackage, all, 20)}`,
  );
  console.log(`\nby function (self time)\n${top(byFunction, all, 40)}\n\nprofile: ${join(profileDir, file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
