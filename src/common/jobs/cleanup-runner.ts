import { Injectable, Logger } from '@nestjs/common';
import { Metrics } from '../metrics/metrics';
import { JobPeriod, JobRunner } from './job-runner';

/** A periodic clean-up: its name (`cleanup-<name>` is its job), its schedule, and the deletion. */
export interface Cleanup {
  name: string;
  /** Every minute, or every hour at its minute 0 (UTC). */
  every: JobPeriod;
  /** Deletes what has expired; the number of rows removed. */
  run: () => Promise<number>;
}

/**
 * How often a worker looks for a waiting run besides when the runs are sent: every replica sends
 * the scheduled runs and wakes its own worker then, so a look in between finds nothing (a statement
 * each, per queue and replica, once the larger part of an idle replica's).
 */
const WORKER_POLLING_SECONDS = 60;
/** A clean-up is a few DELETE statements: a run still going after a minute is stuck. */
const EXPIRE_IN_SECONDS = 60;

/**
 * Runs the modules' periodic clean-ups as named jobs on the job runner, once across replicas.
 * Each run is logged and counted by job and outcome in `/metrics`; a failure is logged as an
 * error and counted, and the next scheduled run tries again.
 */
@Injectable()
export class CleanupRunner {
  private readonly logger = new Logger('Cleanup');

  constructor(
    private readonly jobs: JobRunner,
    private readonly metrics: Metrics,
  ) {}

  register(cleanup: Cleanup): void {
    // Zero from the start, so a rate over the counter sees the first run and failure.
    for (const outcome of ['ok', 'error']) this.metrics.cleanupRuns.inc({ job: cleanup.name, outcome }, 0);
    this.metrics.cleanupRowsRemoved.inc({ job: cleanup.name }, 0);
    this.jobs.define({
      name: `cleanup-${cleanup.name}`,
      every: cleanup.every,
      retryLimit: 0,
      pollingIntervalSeconds: WORKER_POLLING_SECONDS,
      expireInSeconds: EXPIRE_IN_SECONDS,
      run: () => this.runOnce(cleanup),
    });
  }

  private async runOnce(cleanup: Cleanup): Promise<void> {
    const startedAt = performance.now();
    try {
      const removed = await cleanup.run();
      const elapsedMs = Math.round(performance.now() - startedAt);
      this.metrics.cleanupRuns.inc({ job: cleanup.name, outcome: 'ok' });
      this.metrics.cleanupRowsRemoved.inc({ job: cleanup.name }, removed);
      this.metrics.cleanupLastSuccess.set({ job: cleanup.name }, Date.now() / 1000);
      const message = `Clean-up ${cleanup.name}: removed ${removed} rows in ${elapsedMs} ms`;
      if (removed > 0) this.logger.log(message);
      else this.logger.debug(message);
    } catch (error) {
      this.metrics.cleanupRuns.inc({ job: cleanup.name, outcome: 'error' });
      this.logger.error(`Clean-up ${cleanup.name} failed: ${String(error)}`);
      throw error;
    }
  }
}
