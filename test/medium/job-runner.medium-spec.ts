import { Module } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { JobRunner } from '../../src/common/jobs/job-runner';
import { DrainState } from '../../src/common/lifecycle/drain-state';
import { jobsConfig } from '../../src/config/jobs.config';
import { DatabasePool } from '../../src/database/database-pool';
import { bootMedium, MediumModule } from './medium-module';

@Module({})
class NoFeatureModule {}

/** Polls `probe` until it holds, for at most `timeoutMs`. */
async function eventually(probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * pg-boss 10 records a run's outcome without awaiting it: when the database refuses that statement
 * (the pool's deadline under overload), the rejection must not be unhandled, which ends the process.
 */
describe('JobRunner on PostgreSQL', () => {
  let medium: MediumModule;
  let runner: JobRunner | undefined;
  const unhandled = jest.fn();

  beforeAll(async () => {
    medium = await bootMedium(NoFeatureModule);
    process.on('unhandledRejection', unhandled);
  });
  afterAll(async () => {
    runner?.beforeApplicationShutdown();
    await medium.close();
    process.off('unhandledRejection', unhandled);
  });

  it("lives on when the database refuses to record a run's outcome, records it on a later try, and runs the next job", async () => {
    const pool = medium.get(DatabasePool);
    let refusals = 0;
    const overloaded = {
      query: (text: string, values?: unknown[]) =>
        text.includes('SET completed_on = now()') && refusals++ === 0
          ? Promise.reject(new Error('timeout exceeded when trying to connect'))
          : pool.query(text, values),
    } as DatabasePool;
    runner = new JobRunner(overloaded, medium.get(DrainState), {
      enabled: true,
    } as ConfigType<typeof jobsConfig>);
    const runs: string[] = [];
    for (const name of ['first', 'second'])
      runner.define({
        name,
        retryLimit: 0,
        pollingIntervalSeconds: 0.5,
        run: () => {
          runs.push(name);
          return Promise.resolve();
        },
      });
    const stateOf = async (name: string) => {
      const { rows } = await pool.query(`SELECT state FROM pgboss.job WHERE name = $1`, [name]);
      return (rows as { state: string }[])[0]?.state;
    };
    await runner.onApplicationBootstrap();

    await runner.request('first');
    await eventually(async () => runs.includes('first') && refusals > 0);
    await runner.request('second');
    await eventually(async () => (await stateOf('second')) === 'completed');

    await eventually(async () => (await stateOf('first')) === 'completed');
    expect(unhandled).not.toHaveBeenCalled();
  });
});
