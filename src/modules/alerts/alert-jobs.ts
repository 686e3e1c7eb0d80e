import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { JobRunner } from '../../common/jobs/job-runner';
import { alertsConfig } from '../../config/alerts.config';
import { AlertEvaluatorService } from './alert-evaluator.service';
import { BriefingSchedulerService } from './delivery/briefing-scheduler.service';
import { DELIVERY_LEASE_MS, NotificationDelivererService } from './delivery/notification-deliverer.service';

/** The job of evaluation passes. */
export const EVALUATE_QUEUE = 'alerts-evaluate';
/** The job of delivery runs (webhooks, email). */
export const DELIVER_QUEUE = 'notifications-deliver';
/**
 * Only for runs this replica did not ask for or send (another replica's while its own worker is
 * busy, a retry): a replica's ticker and its schedule wake its own worker, so a pass starts as soon
 * as it is asked for, and a look finds nothing most of the time.
 */
const WORKER_POLLING_SECONDS = 15;
/**
 * A pass over 100,000 rules takes a few seconds, under 50 s on a machine loaded twentyfold
 * (docs/alerts.md#scale): a pass still going after a minute is stuck.
 */
const EVALUATE_EXPIRE_IN_SECONDS = 60;
/** A delivery run may take as long as the deliveries it claimed are leased to it. */
const DELIVER_EXPIRE_IN_SECONDS = DELIVERY_LEASE_MS / 1000;

/**
 * The alerts' jobs on the job runner. Every replica's ticker asks for a pass when the replay's
 * prices move; the runner folds the requests of all replicas into one run, handed to one worker,
 * so a pass runs once however many replicas there are.
 */
@Injectable()
export class AlertJobs implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AlertJobs');
  private ticker?: NodeJS.Timeout;

  constructor(
    private readonly jobs: JobRunner,
    private readonly evaluator: AlertEvaluatorService,
    private readonly deliverer: NotificationDelivererService,
    private readonly briefings: BriefingSchedulerService,
    @Inject(alertsConfig.KEY) private readonly config: ConfigType<typeof alertsConfig>,
  ) {}

  onModuleInit(): void {
    this.jobs.define({
      name: EVALUATE_QUEUE,
      // A pass every minute even when no replica's ticker runs.
      every: 'minute',
      retryLimit: 3,
      pollingIntervalSeconds: WORKER_POLLING_SECONDS,
      expireInSeconds: EVALUATE_EXPIRE_IN_SECONDS,
      run: async () => {
        const report = await this.evaluator.evaluate();
        if (report.fired > 0) await this.jobs.request(DELIVER_QUEUE);
        return report;
      },
    });
    this.jobs.define({
      name: DELIVER_QUEUE,
      every: 'minute',
      retryLimit: 3,
      pollingIntervalSeconds: WORKER_POLLING_SECONDS,
      expireInSeconds: DELIVER_EXPIRE_IN_SECONDS,
      run: async () => {
        await this.briefings.sendDue();
        await this.deliverer.deliverDue();
      },
    });
  }

  onApplicationBootstrap(): void {
    if (!this.jobs.enabled) return;
    this.ticker = setInterval(() => void this.askForDueRuns(), this.config.evaluationIntervalMs);
    this.ticker.unref();
  }

  /**
   * The ticker's work: asks for a pass and a delivery run, each only when it has something to do.
   * An idle replica's tick is then three small reads rather than two jobs sent, fetched, run and
   * completed (about twenty statements); the scheduled runs each minute go on regardless.
   */
  async askForDueRuns(): Promise<void> {
    try {
      const [evaluate, deliver] = await Promise.all([this.evaluator.hasWork(), this.deliverer.hasWork()]);
      if (evaluate) await this.jobs.request(EVALUATE_QUEUE);
      if (deliver) await this.jobs.request(DELIVER_QUEUE);
    } catch (error) {
      this.logger.warn(`Looking for alert work failed: ${String(error)}`);
    }
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.ticker);
  }
}
