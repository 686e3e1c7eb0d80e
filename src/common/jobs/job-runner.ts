import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import PgBoss from 'pg-boss';
import { jobsConfig } from '../../config/jobs.config';
import { withinDeadline } from '../cache/within-deadline';
import { DatabasePool } from '../../database/database-pool';
import { DrainState } from '../lifecycle/drain-state';
import { QueueWorker } from './queue-worker';

/** The periods a job can be scheduled at, in seconds: every minute, every hour (at its minute 0). */
const PERIOD_SECONDS = { minute: 60, hour: 3_600 } as const;
export type JobPeriod = keyof typeof PERIOD_SECONDS;
/**
 * When in each minute a replica sends the scheduled runs: half a minute in, so a replica's clock
 * may be up to 30 s off the database's (which names the period a run belongs to) either way.
 */
const SEND_AT_MS_PAST_THE_MINUTE = 30_000;
const MINUTE_MS = 60_000;
/** How long a running job may take to finish at shutdown before it is given up (run again later). */
const STOP_WITHIN_MS = 10_000;
/** pg-boss's own interval between looks for expired runs, and the most this runner uses. */
const MAINTENANCE_INTERVAL_SECONDS = 120;
/**
 * What a statement sent after pg-boss's stop gets: no answer. A run still going when the stop gave
 * up on it records its outcome later, and pg-boss's own timers may fire once more; on the closing
 * pool those statements would fail for nothing. Left unanswered, such a run is given up and
 * pg-boss runs it again after its expiry.
 */
const UNANSWERED = new Promise<never>(() => undefined);

/** A named job: its queue, how often it is scheduled (if at all), and what one run does. */
export interface JobDefinition {
  name: string;
  /**
   * One run per minute, or per hour at its minute 0 (UTC): every replica sends it, and the database
   * keeps one per period (pg-boss's `singletonSeconds`), so it runs once however many replicas.
   */
  every?: JobPeriod;
  /** Attempts after a failed one; a scheduled job that runs again soon anyway needs none. */
  retryLimit: number;
  /** How often this replica's worker looks for a waiting run. */
  pollingIntervalSeconds: number;
  /**
   * The most one run may take: past it the run counts as failed and pg-boss hands the job out
   * again. A run whose outcome could not be recorded holds its `stately` queue this long (then up
   * to half as long again until pg-boss's supervisor notices), so it is sized to the job, not left
   * at pg-boss's 15 minutes.
   */
  expireInSeconds: number;
  /** One run; what it answers is kept as the job's output in pg-boss's tables. */
  run: () => Promise<object | void>;
}

/**
 * The job runner: one pg-boss on the service's own PostgreSQL (embedded or server), through the
 * application's pool, serving every module's named jobs. Modules define their jobs while the
 * application initialises (`onModuleInit`); the runner starts them once it has booted. Every
 * queue is `stately` (at most one run waits and one runs, whatever the replicas), pg-boss hands
 * each run to one worker (SKIP LOCKED), and a scheduled run is kept once per period whoever sends
 * it: a job runs once however many replicas there are. The schedule is the runner's own rather
 * than pg-boss's cron, whose look at the crons (cron-parser through luxon, every schedule, every
 * 20–40 s) and sender's queue polled every few seconds were most of an idle replica's CPU.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('JobRunner');
  private readonly jobs: JobDefinition[] = [];
  private boss: PgBoss | null = null;
  private workers = new Map<string, QueueWorker>();
  private schedule?: NodeJS.Timeout;
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
      db: { executeSql: (text, values) => (this.stopped ? UNANSWERED : this.pool.query(text, values)) },
      schedule: false,
      supervise: true,
      // A run past its expiry is failed (and retried) only at the supervisor's next look: every
      // half of the shortest expiry, so no run outstays its expiry by more than half of it.
      maintenanceIntervalSeconds: this.maintenanceIntervalSeconds(),
    });
    boss.on('error', (error) => this.logger.warn(`Job runner: ${String(error)}`));
    await boss.start();
    this.boss = boss;
    for (const job of this.jobs) {
      const queue: PgBoss.Queue = {
        name: job.name,
        policy: 'stately',
        retryLimit: job.retryLimit,
        expireInSeconds: job.expireInSeconds,
      };
      // createQueue leaves a queue that exists as it was: updateQueue brings its settings up to date.
      await boss.createQueue(job.name, queue);
      await boss.updateQueue(job.name, queue);
      // A cron row left by an earlier version, which pg-boss's cron would go on sending.
      await boss.unschedule(job.name);
      const worker = new QueueWorker(boss, job);
      this.workers.set(job.name, worker);
      worker.start();
    }
    await this.sendScheduledRuns();
  }

  /**
   * Sends the runs of the scheduled jobs whose period began within the last minute (at boot, each
   * minute's at once), wakes this replica's workers for them, and sets the next send half a minute
   * into the next minute. A run the database already holds for its period (another replica's, or
   * this one's at boot) is not sent again, nor one while the queue already has a run waiting.
   */
  private async sendScheduledRuns(): Promise<void> {
    const boss = this.boss;
    if (!boss) return;
    const secondsNow = Math.floor(Date.now() / 1000);
    const due = this.jobs.flatMap(({ name, every }) =>
      every && secondsNow % PERIOD_SECONDS[every] < PERIOD_SECONDS.minute
        ? [{ name, singletonSeconds: PERIOD_SECONDS[every] }]
        : [],
    );
    try {
      if (due.length > 0) await boss.insert(due);
      for (const { name } of due) this.workers.get(name)?.lookNow();
    } catch (error) {
      this.logger.warn(`Could not send the scheduled runs: ${String(error)}`);
    }
    if (this.boss !== boss) return;
    const untilNext = MINUTE_MS - ((Date.now() - SEND_AT_MS_PAST_THE_MINUTE) % MINUTE_MS);
    this.schedule = setTimeout(() => void this.sendScheduledRuns(), untilNext);
    this.schedule.unref();
  }

  private maintenanceIntervalSeconds(): number {
    const shortestExpiry = Math.min(...this.jobs.map((job) => job.expireInSeconds));
    return Math.max(1, Math.min(MAINTENANCE_INTERVAL_SECONDS, Math.floor(shortestExpiry / 2)));
  }

  /** Asks for a run of the job; a run already waiting answers for this one too. */
  async request(name: string): Promise<void> {
    try {
      await this.boss?.send(name, {}, {});
    } catch (error) {
      this.logger.warn(`Could not request a run of ${name}: ${String(error)}`);
      return;
    }
    this.workers.get(name)?.lookNow();
  }

  /**
   * Lets the workers and pg-boss stop in the background: shutdown hooks run module by module, and
   * awaiting a running job here would hold back the HTTP drain (readiness would stay true). The
   * drain then waits for the runs in progress (up to STOP_WITHIN_MS) and pg-boss's stop before the
   * pool closes: a run's outcome is recorded after it ends, and doing so on an ended pool throws. A
   * run cut short is run again later; every job is idempotent.
   */
  beforeApplicationShutdown(): void {
    const boss = this.boss;
    if (!boss) return;
    clearTimeout(this.schedule);
    const runsEnded = Promise.all([...this.workers.values()].map((worker) => worker.stop()));
    const stopping = withinDeadline(runsEnded, STOP_WITHIN_MS)
      .then(() => boss.stop({ graceful: true, close: false, wait: true, timeout: STOP_WITHIN_MS }))
      .catch(() => undefined)
      .then(() => {
        this.stopped = true;
      });
    this.drain.finishBeforeClose(stopping);
    this.boss = null;
    this.workers = new Map();
  }
}
