import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../../common/time/clock';
import { alertsConfig } from '../../../config/alerts.config';
import { PreferencesService } from '../../preferences';
import { UsersService } from '../../users';
import { NotificationsRepository } from '../notifications.repository';
import { EmailSender } from './email-sender';
import { Delivery, NotificationDeliveriesRepository } from './notification-deliveries.repository';
import { NotificationSettingsRepository } from './notification-settings.repository';
import { OutboundNotification, outboundView, PrivacyLevel } from './outbound-view';
import { webhookUrlProblem } from './webhook-address';
import { WebhookSender } from './webhook-sender';

/** Deliveries taken per run. */
const CLAIM_LIMIT = 200;
/** How long a claimed delivery is left to its worker before another may retry it. */
export const DELIVERY_LEASE_MS = 120_000;
/** Without preferences, what leaves the service carries no amounts. */
const DEFAULT_PRIVACY: PrivacyLevel = 'limited';

export interface DeliveryReport {
  delivered: number;
  retried: number;
  dead: number;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Sends what the outbox holds that is due: one message per real-time notification, one digest per
 * user, channel and boundary otherwise. A failed send is retried with exponential back-off
 * (WEBHOOK_RETRY_BASE_MS × 2^attempt) up to WEBHOOK_MAX_ATTEMPTS, then the delivery is dead and
 * the user sees it in GET /notifications/deliveries?status=dead.
 */
@Injectable()
export class NotificationDelivererService {
  private readonly logger = new Logger('NotificationDeliverer');

  constructor(
    private readonly deliveries: NotificationDeliveriesRepository,
    private readonly notifications: NotificationsRepository,
    private readonly settings: NotificationSettingsRepository,
    private readonly preferences: PreferencesService,
    private readonly users: UsersService,
    private readonly webhooks: WebhookSender,
    private readonly email: EmailSender,
    private readonly clock: Clock,
    @Inject(alertsConfig.KEY) private readonly config: ConfigType<typeof alertsConfig>,
  ) {}

  /**
   * Whether a delivery run has anything to do: a delivery is due, or some user has a channel (whose
   * briefing the run may send).
   */
  async hasWork(): Promise<boolean> {
    return (await this.deliveries.anyDue(this.clock.now())) || this.settings.anyWithChannels();
  }

  async deliverDue(): Promise<DeliveryReport> {
    const now = this.clock.now();
    const claimed = await this.deliveries.claimDue(
      now,
      new Date(now.getTime() + DELIVERY_LEASE_MS),
      CLAIM_LIMIT,
    );
    const groups = new Map<string, Delivery[]>();
    for (const delivery of claimed) {
      const key = delivery.digest
        ? `${delivery.userId}:${delivery.channel}:${delivery.dueAt.toISOString()}`
        : `single:${delivery.id}`;
      groups.set(key, [...(groups.get(key) ?? []), delivery]);
    }
    const report: DeliveryReport = { delivered: 0, retried: 0, dead: 0 };
    for (const group of groups.values()) {
      const ids = group.map((delivery) => delivery.id);
      try {
        await this.send(group);
        await this.deliveries.markDelivered(ids, this.clock.now());
        report.delivered += group.length;
      } catch (error) {
        const attempts = Math.max(...group.map((delivery) => delivery.attempts));
        const retryAt =
          attempts >= this.config.webhookMaxAttempts
            ? null
            : new Date(this.clock.now().getTime() + this.config.webhookRetryBaseMs * 2 ** (attempts - 1));
        await this.deliveries.markFailed(
          ids,
          error instanceof Error ? error.message : String(error),
          retryAt,
        );
        if (retryAt) report.retried += group.length;
        else report.dead += group.length;
        this.logger.warn(`Delivery ${ids.join(',')} failed (attempt ${attempts}): ${String(error)}`);
      }
    }
    return report;
  }

  private async send(group: Delivery[]): Promise<void> {
    const [first] = group;
    const [notifications, settings, preferences] = await Promise.all([
      this.notifications.byIds(group.map((delivery) => delivery.notificationId)),
      this.settings.find(first.userId),
      this.preferences.findForUser(first.userId),
    ]);
    if (notifications.length === 0) return;
    const privacy = (preferences?.privacy_level ?? DEFAULT_PRIVACY) as PrivacyLevel;
    const inboxUrl = `${this.config.publicUrl}/api/v1/notifications`;
    const views = notifications.map((notification) => outboundView(notification, privacy, inboxUrl));
    const digest = first.digest;
    const frequency = preferences?.alert_frequency ?? 'real-time';

    if (first.channel === 'webhook') {
      if (!settings?.webhookUrl || !settings.webhookSecret) throw new Error('no webhook is configured');
      const problem = await webhookUrlProblem(settings.webhookUrl, this.config.webhookAllowedHosts);
      if (problem) throw new Error(problem);
      const payload = digest
        ? {
            type: 'notification.digest',
            timestamp: this.clock.now().toISOString(),
            data: { frequency, notifications: views },
          }
        : { type: 'notification.created', timestamp: this.clock.now().toISOString(), data: views[0] };
      await this.webhooks.send(
        settings.webhookUrl,
        settings.webhookSecret,
        { id: `msg_${digest ? 'digest' : 'notification'}_${first.id}`, timestamp: this.clock.now(), payload },
        this.config.webhookTimeoutMs,
      );
      return;
    }
    if (!settings?.emailEnabled) throw new Error('email is turned off');
    const user = await this.users.findById(first.userId);
    if (!user) throw new Error('the user is gone');
    const unsubscribeUrl = `${this.config.publicUrl}/api/v1/notifications/unsubscribe?channel=email&token=${settings.unsubscribeToken}`;
    await this.email.send({
      to: user.email,
      ...renderEmail(views, digest ? frequency : null, inboxUrl, unsubscribeUrl),
      unsubscribeUrl,
    });
  }
}

function renderEmail(
  views: OutboundNotification[],
  digestFrequency: string | null,
  inboxUrl: string,
  unsubscribeUrl: string,
): { subject: string; text: string; html: string } {
  const subject = digestFrequency
    ? `Your ${digestFrequency} alert digest: ${views.length} alert${views.length === 1 ? '' : 's'}`
    : views[0].title;
  const lines = views.map((view) => `- ${view.title}${view.text ? `: ${view.text}` : ''}`);
  const text = [
    ...lines,
    '',
    `Your inbox: ${inboxUrl}`,
    `Unsubscribe from these emails: ${unsubscribeUrl}`,
  ].join('\n');
  const html =
    `<ul>${views.map((view) => `<li><strong>${escapeHtml(view.title)}</strong>${view.text ? ` ${escapeHtml(view.text)}` : ''}</li>`).join('')}</ul>` +
    `<p><a href="${escapeHtml(inboxUrl)}">Your inbox</a></p>` +
    `<p><a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe from these emails</a></p>`;
  return { subject, text, html };
}
