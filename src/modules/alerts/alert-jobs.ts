import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { DrainState } from '../../common/lifecycle/drain-state';
import { alertsConfig } from '../../config/alerts.config';
import { AlertEvaluatorService } from './alert-evaluator.service';
import { BriefingSchedulerService } from './delivery/briefing-scheduler.service';
import { NotificationDelivererService } from './delivery/notification-deliverer.service';

/** The queue of evaluation passes: `stately`, so at most one waits and one runs, whatever the replicas. */
export const EVALUATE_QUEUE = 'alerts-evaluate';
/** The queue of delivery runs (webhooks, email), `stately` like the evaluations. */
export const DELIVER_QUEUE = 'notifications-deliver';
/** A pass every minute even when no replica's ticker runs (pg-boss's own cron, one replica sends it). */
const EVALUATE_CRON = '* * * * *';
const WORKER_POLLING_SECONDS = 0.5;
/** How long a running pass may take to finish at shutdown before pg-boss marks it failed (retried later). */
const STOP_WITHIN_MS = 10_000;

/**
 * The job runner: pg-boss on the service's own PostgreSQL (embedded or server), through the
 * application's pool. Every replica's ticker asks for a pass when the replay's prices move; the
 * queue's policy folds the requests of all replicas into one job, and pg-boss hands each job to
 * one worker (SKIP LOCKED), so a pass runs once however many replicas there are.
 */
@Injectable()
export class AlertJobs implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AlertJobs');
  private boss: PgBoss | null = null;
  private ticker?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly evaluator: AlertEvaluatorService,
    private readonly deliverer: NotificationDelivererService,
    private readonly briefings: BriefingSchedulerService,
    @Inject(alertsConfig.KEY) private readonly config: ConfigType<typeof alertsConfig>,
    private readonly drain: DrainState,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.jobsEnabled) return;
    const pool = (this.dataSource.driver as PostgresDriver).master as {
      query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
    };
    const boss = new PgBoss({
      db: { executeSql: (text, values) => pool.query(text, values) },
      schedule: true,
      supervise: true,
    });
    boss.on('error', (error) => this.logger.warn(`Job runner: ${String(error)}`));
    await boss.start();
    this.boss = boss;
    await boss.createQueue(EVALUATE_QUEUE, { name: EVALUATE_QUEUE, policy: 'stately', retryLimit: 3 });
    await boss.schedule(EVALUATE_QUEUE, EVALUATE_CRON);
    await boss.createQueue(DELIVER_QUEUE, { name: DELIVER_QUEUE, policy: 'stately', retryLimit: 3 });
    await boss.schedule(DELIVER_QUEUE, EVALUATE_CRON);
    await boss.work(EVALUATE_QUEUE, { pollingIntervalSeconds: WORKER_POLLING_SECONDS }, async () => {
      const { fired } = await this.evaluator.evaluate();
      if (fired > 0) await this.request(DELIVER_QUEUE);
    });
    await boss.work(DELIVER_QUEUE, { pollingIntervalSeconds: WORKER_POLLING_SECONDS }, async () => {
      await this.briefings.sendDue();
      await this.deliverer.deliverDue();
    });
    this.ticker = setInterval(() => {
      void this.request(EVALUATE_QUEUE);
      void this.request(DELIVER_QUEUE);
    }, this.config.evaluationIntervalMs);
    this.ticker.unref();
  }

  /** Asks for a run of `queue`; a run already waiting answers for this one too. */
  private async request(queue: string): Promise<void> {
    try {
      await this.boss?.send(queue, {}, {});
    } catch (error) {
      this.logger.warn(`Could not request a run of ${queue}: ${String(error)}`);
    }
  }

  /**
   * Stops asking for runs and lets pg-boss stop in the background: shutdown hooks run module by
   * module, and awaiting a running pass here would hold back the HTTP drain (readiness would stay
   * true). The drain then waits for the stop before the pool closes: pg-boss records a job's
   * outcome after its handler, and doing so on an ended pool throws where nothing catches it.
   */
  beforeApplicationShutdown(): void {
    clearInterval(this.ticker);
    const stopping = this.boss?.stop({ graceful: true, close: false, wait: true, timeout: STOP_WITHIN_MS });
    if (stopping) this.drain.finishBeforeClose(stopping.catch(() => undefined));
    this.boss = null;
  }
}
