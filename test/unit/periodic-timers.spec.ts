import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * Periodic work that must happen once across replicas (the clean-ups) runs as jobs on pg-boss
 * (src/common/jobs); a hand-written timer would run on every replica and swallow its errors.
 * The timers left are per process by nature: connection sweeps, heartbeats, recovery pings, the
 * tickers that ask the job runner for a run, and the in-memory market graph's refresh.
 */
describe('periodic timers', () => {
  it('only per-process work runs on setInterval; the clean-ups do not', () => {
    const withTimers = sourceFiles(SRC)
      .filter((file) => /\bsetInterval\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file))
      .sort();
    expect(withTimers).toEqual([
      'bootstrap/graceful-shutdown.ts',
      'common/cache/redis-consistent-cache.ts',
      'modules/alerts/alert-jobs.ts',
      'modules/alerts/notification-stream.ts',
      'modules/graph/graph-maintenance.service.ts',
    ]);
  });
});
