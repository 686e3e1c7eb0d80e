import { Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { JobRunner } from '../../src/common/jobs/job-runner';
import { RECORD_RETRY_PAUSES_MS } from '../../src/common/jobs/queue-worker';
import { DrainState } from '../../src/common/lifecycle/drain-state';
import { jobsConfig } from '../../src/config/jobs.config';
import { DatabasePool } from '../../src/database/database-pool';
import { bootMedium, MediumModule } from './medium-module';

@Module({})
class NothingElseModule {}

/** The pool as the job runner sees it, refusing the statements that record a completed run of a queue. */
class PoolRefusingCompletions extends DatabasePool {
  /** How many more completions of each queue to refuse. */
  readonly refusals = new Map<string, number>();

  override query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    const queue = String(values?.[0]);
    const left = this.refusals.get(queue) ?? 0;
    if (text.includes("state = 'completed'") && left > 0) {
      this.refusals.set(queue, left - 1);
      return Promise.reject(new Error('Connection terminated unexpectedly'));
    }
    return super.query(text, values);
  }
}

const POLLING_SECONDS = 1;
/** The expiry of the queue whose completions are refused until it passes. */
const SHORT_EXPIRY_SECONDS = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(holds: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await holds())) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await sleep(100);
  }
}

/**
 * pg-boss on a real database, with the statement that records a run's outcome refused (as an
 * exhausted pool or a dropped connection refuses it): the process must not see an unhandled
 * rejection (Node.js ends the process on one), and the runner must go on running jobs.
 */
describe('JobRunner when the database refuses to record a run', () => {
  let medium: MediumModule;
  let pool: PoolRefusingCompletions;
  let runner: JobRunner;
  let drain: DrainState;
  const runs: string[] = [];
  const unhandled: unknown[] = [];
  const recordUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    medium = await bootMedium(NothingElseModule);
    pool = new PoolRefusingCompletions(medium.get(DataSource));
    drain = new DrainState();
    const config = { enabled: true } as ConfigType<typeof jobsConfig>;
    runner = new JobRunner(pool, drain, config);
    for (const name of ['probe', 'next-probe', 'retried-probe', 'persistent-probe', 'expiring-probe']) {
      runner.define({
        name,
        retryLimit: 0,
        pollingIntervalSeconds: POLLING_SECONDS,
        expireInSeconds: name === 'expiring-probe' ? SHORT_EXPIRY_SECONDS : 60,
        run: async () => {
          runs.push(name);
          return { run: runs.length };
        },
      });
    }
    process.on('unhandledRejection', recordUnhandled);
    await runner.onApplicationBootstrap();
  }, 60_000);
  afterAll(async () => {
    runner.beforeApplicationShutdown();
    await drain.allFinished();
    process.off('unhandledRejection', recordUnhandled);
    await medium.close();
  });

  const statesOfRuns = async (names = ['probe', 'next-probe']) =>
    (
      (await medium
        .get(DataSource)
        .query(`SELECT name, state FROM pgboss.job WHERE name = ANY($1) ORDER BY created_on`, [names])) as {
        name: string;
        state: string;
      }[]
    ).map(({ name, state }) => `${name}: ${state}`);

  it('logs a completion refused every time, leaves that run to expire, and goes on running jobs', async () => {
    pool.refusals.set('probe', Number.POSITIVE_INFINITY);
    await runner.request('probe');
    await eventually(() => runs.length === 1);
    // The refused statement's rejection has had time to surface (Node.js reports it after the tick).
    await sleep(1_000);
    expect(unhandled).toEqual([]);
    expect(await statesOfRuns()).toEqual(['probe: active']);

    await runner.request('next-probe');
    await eventually(async () => (await statesOfRuns()).includes('next-probe: completed'));
    expect(await statesOfRuns()).toEqual(['probe: active', 'next-probe: completed']);
    expect(runs).toEqual(['probe', 'next-probe']);
    expect(unhandled).toEqual([]);
  }, 60_000);

  it('a completion refused until the run expires holds its stately queue only until that expiry', async () => {
    pool.refusals.set('expiring-probe', Number.POSITIVE_INFINITY);
    const startsOfRuns: number[] = [];
    const ran = () => runs.filter((name) => name === 'expiring-probe').length;
    await runner.request('expiring-probe');
    await eventually(() => ran() === 1);
    startsOfRuns.push(Date.now());
    // Asked for while the first is active: it waits, as the stately queue holds one run at a time.
    await runner.request('expiring-probe');
    await eventually(() => ran() === 2);
    startsOfRuns.push(Date.now());
    pool.refusals.set('expiring-probe', 0);

    // The expiry, then the supervisor's next look (every half of the shortest expiry), then the
    // worker's next poll; and the machine's slack.
    const stallBoundMs = (SHORT_EXPIRY_SECONDS * 1.5 + POLLING_SECONDS) * 1000 + 3_000;
    expect(startsOfRuns[1] - startsOfRuns[0]).toBeLessThan(stallBoundMs);
    await eventually(async () =>
      (await statesOfRuns(['expiring-probe'])).includes('expiring-probe: completed'),
    );
    expect(await statesOfRuns(['expiring-probe'])).toEqual([
      'expiring-probe: failed',
      'expiring-probe: completed',
    ]);
    expect(unhandled).toEqual([]);
  }, 60_000);

  it('records a completion refused twice at the third try', async () => {
    pool.refusals.set('retried-probe', 2);
    await runner.request('retried-probe');
    await eventually(async () =>
      (await statesOfRuns(['retried-probe'])).includes('retried-probe: completed'),
    );
    expect(pool.refusals.get('retried-probe')).toBe(0);
    expect(runs.filter((name) => name === 'retried-probe')).toEqual(['retried-probe']);
    expect(unhandled).toEqual([]);
  }, 60_000);

  it('keeps recording a refused completion while the run is still its own (before its expiry)', async () => {
    const refusals = RECORD_RETRY_PAUSES_MS.length + 1;
    pool.refusals.set('persistent-probe', refusals);
    await runner.request('persistent-probe');
    await eventually(
      async () => (await statesOfRuns(['persistent-probe'])).includes('persistent-probe: completed'),
      30_000,
    );
    expect(pool.refusals.get('persistent-probe')).toBe(0);
    expect(runs.filter((name) => name === 'persistent-probe')).toEqual(['persistent-probe']);
  }, 60_000);
});
