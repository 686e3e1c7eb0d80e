import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { NotFoundError } from '../../../common/errors/domain-errors';
import { FieldProblem, FieldProblems } from '../../../common/errors/field-problems';
import { ErrorDetail } from '../../../common/errors/error-details';
import { Clock } from '../../../common/time/clock';
import { alertsConfig } from '../../../config/alerts.config';
import { PreferencesService } from '../../preferences';
import { AlertFrequency, deliveryDueAt } from './delivery-schedule';
import { EmailSender } from './email-sender';
import {
  Delivery,
  DeliveryChannel,
  DeliveryStatus,
  NotificationDeliveriesRepository,
} from './notification-deliveries.repository';
import {
  DEFAULT_TIME_ZONE,
  NotificationSettingsRepository,
  StoredNotificationSettings,
} from './notification-settings.repository';
import { webhookUrlProblem } from './webhook-address';
import { newWebhookSecret } from './webhook-sender';
import { isTimeZone } from './zoned-time';

export interface NotificationSettings {
  webhookUrl: string | null;
  webhookSecret: string | null;
  emailEnabled: boolean;
  emailAvailable: boolean;
  timeZone: string;
}

/** Where and when a notification created now for a user goes beyond the inbox. */
export interface DeliveryPlan {
  channels: DeliveryChannel[];
  dueAt: Date;
  digest: boolean;
}

export interface NotificationSettingsChanges {
  webhook_url?: string | null;
  email_enabled?: boolean;
  time_zone?: string;
}

/** Where a user's notifications go besides the inbox, and the time zone their digests follow. */
@Injectable()
export class NotificationSettingsService {
  constructor(
    private readonly settings: NotificationSettingsRepository,
    private readonly deliveries: NotificationDeliveriesRepository,
    private readonly email: EmailSender,
    private readonly preferences: PreferencesService,
    private readonly clock: Clock,
    @Inject(alertsConfig.KEY) private readonly config: ConfigType<typeof alertsConfig>,
  ) {}

  async get(userId: number): Promise<NotificationSettings> {
    return this.view(await this.settings.find(userId));
  }

  usersWithChannels(): Promise<{ userId: number; timeZone: string }[]> {
    return this.settings.withChannels();
  }

  /** The channels of the user and when a notification created at `now` goes out on them (alert_frequency). */
  async plan(userId: number, now: Date): Promise<DeliveryPlan> {
    const [stored, preferences] = await Promise.all([
      this.settings.find(userId),
      this.preferences.findForUser(userId),
    ]);
    const channels: DeliveryChannel[] = [];
    if (stored?.webhookUrl) channels.push('webhook');
    if (stored?.emailEnabled && this.email.available) channels.push('email');
    const frequency: AlertFrequency = preferences?.alert_frequency ?? 'real-time';
    return {
      channels,
      dueAt: deliveryDueAt(
        now,
        frequency,
        preferences?.daily_summary_time ?? 'convenient',
        stored?.timeZone ?? DEFAULT_TIME_ZONE,
      ),
      digest: frequency !== 'real-time',
    };
  }

  async update(userId: number, changes: NotificationSettingsChanges): Promise<NotificationSettings> {
    const problems: FieldProblem[] = [];
    if (changes.time_zone !== undefined && !isTimeZone(changes.time_zone))
      problems.push({ path: ['time_zone'], message: 'time_zone must be an IANA time zone' });
    if (changes.email_enabled === true && !this.email.available)
      problems.push({
        path: ['email_enabled'],
        message: 'email is not available on this service (SMTP_URL is not set)',
      });
    if (changes.webhook_url) {
      const problem = await webhookUrlProblem(changes.webhook_url, this.config.webhookAllowedHosts);
      if (problem) problems.push({ path: ['webhook_url'], message: problem });
    }
    if (problems.length > 0) throw new FieldProblems(problems);
    const current = await this.settings.find(userId);
    const webhookChanged = changes.webhook_url !== undefined;
    const stored = await this.settings.update(
      userId,
      {
        ...(webhookChanged ? { webhookUrl: changes.webhook_url } : {}),
        // A new receiver keeps the secret it was given; the first one gets a fresh secret.
        ...(webhookChanged && changes.webhook_url && !current?.webhookSecret
          ? { webhookSecret: newWebhookSecret() }
          : {}),
        ...(changes.email_enabled === undefined ? {} : { emailEnabled: changes.email_enabled }),
        ...(changes.time_zone === undefined ? {} : { timeZone: changes.time_zone }),
      },
      this.clock.now(),
    );
    return this.view(stored);
  }

  /** 404 for a token no user holds. */
  async unsubscribe(token: string, channel: 'email' | 'webhook'): Promise<void> {
    if (!(await this.settings.unsubscribe(token, channel, this.clock.now())))
      throw new NotFoundError(ErrorDetail.unsubscribeLinkNotFound);
  }

  deliveriesOf(userId: number, status: DeliveryStatus | undefined, limit: number): Promise<Delivery[]> {
    return this.deliveries.listForUser(userId, status, limit);
  }

  private view(stored: StoredNotificationSettings | null): NotificationSettings {
    return {
      webhookUrl: stored?.webhookUrl ?? null,
      webhookSecret: stored?.webhookUrl ? (stored.webhookSecret ?? null) : null,
      emailEnabled: (stored?.emailEnabled ?? false) && this.email.available,
      emailAvailable: this.email.available,
      timeZone: stored?.timeZone ?? DEFAULT_TIME_ZONE,
    };
  }
}
