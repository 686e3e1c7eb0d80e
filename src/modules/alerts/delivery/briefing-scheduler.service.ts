import { Injectable, Logger } from '@nestjs/common';
import { isNyseTradingDay } from '../../../common/calendar/nyse-calendar';
import { Clock } from '../../../common/time/clock';
import { BriefingService } from '../../assistant';
import { PreferencesService } from '../../preferences';
import { AlertRulesRepository } from '../alert-rules.repository';
import { NotificationsRepository } from '../notifications.repository';
import { CONVENIENT_NEW_YORK_MINUTE, SUMMARY_MINUTES } from './delivery-schedule';
import { NotificationDeliveriesRepository } from './notification-deliveries.repository';
import { NotificationSettingsService } from './notification-settings.service';
import { localTime, zonedInstant } from './zoned-time';

/** A briefing whose time passed longer ago than this (the service was down) is skipped, not sent late. */
const LATE_BY_AT_MOST_MS = 6 * 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The daily briefing, generated and delivered at the user's daily_summary_time in their time zone
 * to the users with a channel besides the inbox. One per user and local date (a unique key), so
 * every replica may run it; none on a day the exchange is closed unless an alert fired since the
 * day before.
 */
@Injectable()
export class BriefingSchedulerService {
  private readonly logger = new Logger('BriefingScheduler');

  constructor(
    private readonly settings: NotificationSettingsService,
    private readonly preferences: PreferencesService,
    private readonly briefings: BriefingService,
    private readonly notifications: NotificationsRepository,
    private readonly deliveries: NotificationDeliveriesRepository,
    private readonly rules: AlertRulesRepository,
    private readonly clock: Clock,
  ) {}

  async sendDue(): Promise<number> {
    const now = this.clock.now();
    let sent = 0;
    for (const { userId, timeZone } of await this.settings.usersWithChannels()) {
      try {
        if (await this.sendIfDue(userId, timeZone, now)) sent++;
      } catch (error) {
        this.logger.warn(`Briefing of user ${userId} failed: ${String(error)}`);
      }
    }
    return sent;
  }

  private async sendIfDue(userId: number, timeZone: string, now: Date): Promise<boolean> {
    const preferences = await this.preferences.findForUser(userId);
    const summaryTime = preferences?.daily_summary_time ?? 'convenient';
    const [minute, zone] =
      summaryTime in SUMMARY_MINUTES
        ? [SUMMARY_MINUTES[summaryTime], timeZone]
        : [CONVENIENT_NEW_YORK_MINUTE, 'America/New_York'];
    const date = localTime(now, zone).date;
    const dueAt = zonedInstant(date, minute, zone);
    if (now < dueAt || now.getTime() - dueAt.getTime() > LATE_BY_AT_MOST_MS) return false;
    if (
      !isNyseTradingDay(date) &&
      !(await this.notifications.anySince(userId, new Date(dueAt.getTime() - DAY_MS)))
    )
      return false;

    const plan = await this.settings.plan(userId, now);
    const briefing = await this.briefings.briefing(userId);
    const text = [
      briefing.headline,
      ...briefing.sections.map((section) => `${section.title}: ${section.text}`),
    ]
      .join('\n')
      .slice(0, 2000);
    return this.rules.transaction(async (manager) => {
      const id = await this.notifications.insertKeyedOnce(manager, {
        userId,
        dedupeKey: `briefing:${date}`,
        kind: 'briefing',
        title: `Your ${summaryTime} briefing for ${date}`,
        text,
        data: {
          sections: briefing.sections,
          as_of: briefing.asOf.toISOString(),
          disclaimer: briefing.disclaimer,
        },
        createdAt: now,
      });
      if (id === null) return false;
      await this.deliveries.enqueue(manager, id, userId, plan.channels, now, false);
      return true;
    });
  }
}
