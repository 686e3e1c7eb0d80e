import { Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { JobRunner } from '../../src/common/jobs/job-runner';
import { DrainState } from '../../src/common/lifecycle/drain-state';
import { jobsConfig } from '../../src/config/jobs.config';
import { DatabasePool } from '../../src/database/database-pool';
import { bootMedium, MediumModule } from './medium-module';

@Module({})
class NothingElseModule {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The runner's own schedule in place of pg-boss's cron: every replica sends each minute's run and
 * wakes its worker, and the database keeps one run per minute, so the job runs once per minute
 * however many replicas send it.
 */
describe('JobRunner schedule on two replicas', () => {
  let medium: MediumModule;
  const replicas: { runner: JobRunner; drain: DrainState }[] = [];
  const runs: string[] = [];

  beforeAll(async () => {
    medium = await bootMedium(NothingElseModule);
    for (const replica of ['a', 'b']) {
      const drain = new DrainState();
      const config = { enabled: true } as ConfigType<typeof jobsConfig>;
      const runner = new JobRunner(new DatabasePool(medium.get(DataSource)), drain, config);
      runner.define({
        name: 'minute-probe',
        every: 'minute',
        retryLimit: 0,
        // Longer than the test: only the sends wake the workers.
        pollingIntervalSeconds: 600,
        expireInSeconds: 60,
        run: async () => {
          runs.push(replica);
        },
      });
      replicas.push({ runner, drain });
    }
    // One after the other: pg-boss's createQueue on two connections at once can deadlock.
    for (const { runner } of replicas) await runner.onApplicationBootstrap();
  }, 60_000);
  afterAll(async () => {
    for (const { runner, drain } of replicas) {
      runner.beforeApplicationShutdown();
      await drain.allFinished();
    }
    await medium.close();
  });

  it('runs the minute sent by both replicas once, at their boot', async () => {
    const deadline = Date.now() + 20_000;
    while (runs.length === 0 && Date.now() < deadline) await sleep(100);
    // Both workers have looked (each woke as its replica sent); a second run would have started.
    await sleep(2_000);
    const [{ minutes }] = (await medium
      .get(DataSource)
      .query(
        `SELECT count(DISTINCT singleton_on)::int AS minutes FROM pgboss.job WHERE name = 'minute-probe'`,
      )) as { minutes: number }[];
    expect(minutes).toBeGreaterThanOrEqual(1);
    // Two sends per minute, one run per minute (a boot across a minute's end sends two minutes).
    expect(runs).toHaveLength(minutes);
  }, 60_000);
});
