// The database modes a benchmark runs the built service in: the embedded default, and a fresh
// database on a PostgreSQL server with Redis. Each has its own port, data directory and clean-up.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ROOT } from './service';

export interface Mode {
  label: string;
  port: number;
  env: Record<string, string>;
  prepare(): Promise<void>;
  cleanup(): Promise<void>;
}

export function build(): void {
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

export function embeddedMode(port: number): Mode {
  const dataDir = mkdtempSync(join(tmpdir(), 'ia-bench-'));
  return {
    label: 'Embedded database (default)',
    port,
    env: { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' },
    prepare: async () => undefined,
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** A fresh database on the server of BENCH_DATABASE_URL, and a cache namespace of its own. */
export function postgresMode(port: number, serverUrl: string, redisUrl: string): Mode {
  const name = `bench_${randomUUID().replaceAll('-', '')}`;
  const databaseUrl = new URL(serverUrl);
  databaseUrl.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ia-bench-'));
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    label: 'PostgreSQL + Redis',
    port,
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: redisUrl,
      CACHE_NAMESPACE: `bench-${randomUUID()}`,
    },
    prepare: () => admin(`CREATE DATABASE ${name}`),
    cleanup: async () => {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Builds (unless BENCH_SKIP_BUILD is set: dist/ as it is), then runs `bench` in the embedded mode
 * and, with BENCH_DATABASE_URL and BENCH_REDIS_URL set, on that server and Redis too: one report
 * section per mode.
 */
export async function inEveryMode(
  portBase: number,
  bench: (mode: Mode) => Promise<string>,
): Promise<string[]> {
  if (!process.env.BENCH_SKIP_BUILD) build();
  const modes = [embeddedMode(portBase)];
  const { BENCH_DATABASE_URL, BENCH_REDIS_URL } = process.env;
  if (BENCH_DATABASE_URL && BENCH_REDIS_URL)
    modes.push(postgresMode(portBase + 10, BENCH_DATABASE_URL, BENCH_REDIS_URL));
  const sections: string[] = [];
  for (const mode of modes) sections.push(await bench(mode));
  return sections;
}

/** The machine a report was measured on, and its load average at the end. */
export function machineLine(): string {
  return `Run ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} (load average ${loadavg()[0].toFixed(1)} at the end)`;
}
