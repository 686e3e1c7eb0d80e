import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { setTimeout as pause } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { completeJobs, failJobsById } from 'pg-boss/src/plans';
import { jobsConfig } from '../../config/jobs.config';
import { DatabasePool } from '../../database/database-pool';
import { DrainState } from '../lifecycle/drain-state';

const CRON_CHECK_SECONDS = 10;
/** How long a running job may take to finish at shutdown before pg-boss marks it failed (run again later). */
const STOP_WITHIN_MS = 10_000;
/**
 * What a statement pg-boss sends after its stop gets: no answer. Its workers record a run's outcome
 * without awaiting it, and a worker whose fetch was in flight at the stop runs one more job; on the
 * closing pool those statements would reject where nothing catches them, ending the process. Left
 * unanswered, the run is given up and pg-boss runs it again after its expiry.
 */
const UNANSWERED = new Promise<never>(() => undefined);
const SCHEMA = 'pgboss';
/**
 * The statements by which pg-boss 10's workers record a run's outcome (completed, failed) without
 * awaiting them: a rejection there (the pool's wait or query deadline under an overloaded database)
 * is unhandled and ends the process. A completion is tried again after these pauses (it only moves
 * an active job to completed, so a second try changes nothing that the first did); a failure, or a
 * completion still refused, is logged and left unanswered: the run stays active until its expiry,
 * then pg-boss runs it again (every job is idempotent).
 */
const COMPLETION = completeJobs(SCHEMA);
const FAILURE = failJobsById(SCHEMA);
const COMPLETION_RETRY_PAUSES_MS = [1_000, 2_000, 4_000];

/** A named job: its queue, how often pg-boss schedules it (if at all), and what one run does. */
export interface JobDefinition {
  name: string;
  /** A cron expression (UTC): pg-boss sends one run per matching minute, from one replica. */
  cron?: string;
  /** Attempts after a failed one; a scheduled job that runs again soon anyway needs none. */
  retryLimit: number;
  /** How often this replica's worker looks for a waiting run. */
  pollingIntervalSeconds: number;
  /** One run; what it answers is kept as the job's output in pg-boss's tables. */
  run: () => Promise<object | void>;
}

/**
 * The job runner: one pg-boss on the service's own PostgreSQL (embedded or server), through the
 * application's pool, serving every module's named jobs. Modules define their jobs while the
 * application initialises (`onModuleInit`); the runner starts them once it has booted. Every
 * queue is `stately` (at most one run waits and one runs, whatever the replicas), pg-boss hands
 * each run to one worker (SKIP LOCKED), and its cron sends each scheduled run from one replica:
 * a job runs once however many replicas there are.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('JobRunner');
  private readonly jobs: JobDefinition[] = [];
  private boss: PgBoss | null = null;
  private stopped = false;

  constructor(
    private readonly pool: DatabasePool,
    private readonly drain: DrainState,
    @Inject(jobsConfig.KEY) private readonly config: ConfigType<typeof jobsConfig>,
  ) {}

  /** Whether this replica runs jobs (`JOBS_ENABLED`). */
  get enabled(): boolean {
    return this.config.enabled;
  }

  define(job: JobDefinition): void {
    if (this.jobs.some((defined) => defined.name === job.name)) {
      throw new Error(`The job ${job.name} is defined twice`);
    }
    this.jobs.push(job);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.enabled) return;
    const boss = new PgBoss({
      db: { executeSql: (text, values) => this.executeSql(text, values) },
      schema: SCHEMA,
      schedule: true,
      supervise: true,
      // The queues are scheduled after pg-boss starts, so its first look at the crons finds none;
      // the next comes this soon rather than pg-boss's 30 s (one UPDATE per replica each time).
      cronMonitorIntervalSeconds: CRON_CHECK_SECONDS,
      cronWorkerIntervalSeconds: CRON_CHECK_SECONDS / 5,
    });
    boss.on('error', (error) => this.logger.warn(`Job runner: ${String(error)}`));
    await boss.start();
    this.boss = boss;
    for (const job of this.jobs) {
      await boss.createQueue(job.name, { name: job.name, policy: 'stately', retryLimit: job.retryLimit });
      if (job.cron) await boss.schedule(job.name, job.cron);
      await boss.work(job.name, { pollingIntervalSeconds: job.pollingIntervalSeconds }, () => job.run());
    }
  }

  private executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    if (this.stopped) return UNANSWERED;
    if (text === COMPLETION || text === FAILURE) return this.recordOutcome(text, values);
    return this.pool.query(text, values);
  }

  private async recordOutcome(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    const pauses = text === COMPLETION ? COMPLETION_RETRY_PAUSES_MS : [];
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.pool.query(text, values);
      } catch (error) {
        if (attempt >= pauses.length || this.stopped) {
          this.logger.warn(
            `Job runner could not record a run's outcome (run again after its expiry): ${String(error)}`,
          );
          return UNANSWERED;
        }
      }
      await pause(pauses[attempt]);
      if (this.stopped) return UNANSWERED;
    }
  }

  /** Asks for a run of the job; a run already waiting answers for this one too. */
  async request(name: string): Promise<void> {
    try {
      await this.boss?.send(name, {}, {});
    } catch (error) {
      this.logger.warn(`Could not request a run of ${name}: ${String(error)}`);
    }
  }

  /**
   * Lets pg-boss stop in the background: shutdown hooks run module by module, and awaiting a
   * running job here would hold back the HTTP drain (readiness would stay true). The drain then
   * waits for the stop before the pool closes: pg-boss records a run's outcome after it, and doing
   * so on an ended pool throws where nothing catches it. A run cut short is run again later; every
   * job is idempotent.
   */
  beforeApplicationShutdown(): void {
    const stopping = this.boss?.stop({ graceful: true, close: false, wait: true, timeout: STOP_WITHIN_MS });
    if (stopping)
      this.drain.finishBeforeClose(
        stopping
          .catch(() => undefined)
          .then(() => {
            this.stopped = true;
          }),
      );
    this.boss = null;
  }
}
