import { Logger } from '@nestjs/common';
import type PgBoss from 'pg-boss';
import type { JobDefinition } from './job-runner';

/** The part of pg-boss a worker uses: take a waiting run, record how it ended. */
export type JobQueue = Pick<PgBoss, 'fetch' | 'complete' | 'fail'>;

/** How a run ended: its output, or the error it ended with. */
type RunOutcome = { ended: 'completed'; output?: object } | { ended: 'failed'; error: unknown };

/**
 * Pauses before recording a run's outcome again after the database refused it, the last repeated
 * while the run is still this worker's (until its expiry): a completion left unrecorded keeps the
 * run active until then, and a `stately` queue starts no other run meanwhile.
 */
export const RECORD_RETRY_PAUSES_MS = [1_000, 2_000, 4_000];

/** A run as pg-boss hands it out (its fetch answers the expiry the queue set, in seconds). */
interface FetchedRun {
  id: string;
  expireInSeconds?: number | string;
}

/**
 * One queue's worker on this replica, in place of pg-boss's own (`work()`): pg-boss 10 records a
 * run's outcome without awaiting it, so a database that refuses that statement (an exhausted pool,
 * a dropped connection) rejects where nothing catches it and ends the process. Here every
 * statement is awaited and a failure is logged; an outcome that could not be recorded by the
 * run's expiry leaves the run active, and pg-boss's supervisor expires it and runs it again (every
 * job is idempotent).
 * pg-boss 11 and later await it, but need Node.js 22.
 */
export class QueueWorker {
  private readonly logger = new Logger('JobRunner');
  private stopping = false;
  /** A run was asked for on this replica since the worker last looked: it looks again at once. */
  private asked = false;
  private endPause: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly queue: JobQueue,
    private readonly job: JobDefinition,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops looking for runs; resolves once the run in progress (if any) has ended and been recorded. */
  stop(): Promise<void> {
    this.stopping = true;
    this.endPause?.();
    return this.loop ?? Promise.resolve();
  }

  /**
   * Looks for a waiting run now rather than at the next poll (once the run in progress has ended):
   * a run asked for on this replica starts without waiting for the polling interval, which then
   * only matters for runs sent elsewhere (other replicas) and retries.
   */
  lookNow(): void {
    this.asked = true;
    this.endPause?.();
  }

  private async run(): Promise<void> {
    const intervalMs = this.job.pollingIntervalSeconds * 1000;
    while (!this.stopping) {
      const started = Date.now();
      this.asked = false;
      await this.takeWaitingRun();
      const rest = intervalMs - (Date.now() - started);
      if (!this.stopping && !this.asked && rest > 0) await this.pause(rest);
    }
  }

  private async takeWaitingRun(): Promise<void> {
    const { name } = this.job;
    let runs: FetchedRun[];
    try {
      runs = ((await this.queue.fetch(name)) ?? []) as FetchedRun[];
    } catch (error) {
      this.logger.warn(`Job ${name}: looking for a waiting run failed: ${String(error)}`);
      return;
    }
    for (const { id, expireInSeconds } of runs) {
      const expiresAt = Date.now() + Number(expireInSeconds) * 1000;
      let outcome: RunOutcome;
      try {
        const output = await withinSeconds(this.job.run(), Number(expireInSeconds));
        outcome = { ended: 'completed', output: output ?? undefined };
      } catch (error) {
        outcome = { ended: 'failed', error };
      }
      await this.record(id, outcome, expiresAt);
    }
  }

  /**
   * Records how a run ended, trying again after RECORD_RETRY_PAUSES_MS while refused, up to the
   * run's expiry: past it, pg-boss may hand the job out again, and a late record would end that run.
   */
  private async record(id: string, outcome: RunOutcome, expiresAt: number): Promise<void> {
    const { name } = this.job;
    for (let attempt = 0; ; attempt++) {
      try {
        if (outcome.ended === 'completed') await this.queue.complete(name, id, outcome.output);
        else await this.queue.fail(name, id, { message: String(outcome.error) });
        return;
      } catch (error) {
        const pause = RECORD_RETRY_PAUSES_MS[Math.min(attempt, RECORD_RETRY_PAUSES_MS.length - 1)];
        if (this.stopping || !(Date.now() + pause < expiresAt)) {
          this.logger.warn(
            `Job ${name}: the run's outcome (${outcome.ended}) was not recorded, it runs again after its expiry: ${String(error)}`,
          );
          return;
        }
        await this.pause(pause);
      }
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.endPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** The run's answer, or a rejection once its expiry has passed (pg-boss would expire it then too). */
function withinSeconds<T>(run: Promise<T>, seconds: number): Promise<T> {
  if (!(seconds > 0)) return run;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the run did not end within ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([run, expired]).finally(() => clearTimeout(timer));
}
