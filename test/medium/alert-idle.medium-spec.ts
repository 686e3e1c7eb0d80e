import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NewAlertRule } from '../../src/modules/alerts/alert-rule';
import { AlertRulesRepository } from '../../src/modules/alerts/alert-rules.repository';
import { NotificationDeliveriesRepository } from '../../src/modules/alerts/delivery/notification-deliveries.repository';
import { NotificationSettingsRepository } from '../../src/modules/alerts/delivery/notification-settings.repository';
import { UsersModule } from '../../src/modules/users/users.module';
import { newUser } from './builders';
import { bootMedium, MediumModule } from './medium-module';

@Module({
  imports: [UsersModule],
  providers: [AlertRulesRepository, NotificationDeliveriesRepository, NotificationSettingsRepository],
})
class AlertRulesWithUsersModule {}

const now = new Date('2026-03-02T15:00:00.000Z');
const priceRule = (rearm: NewAlertRule['rearm']): NewAlertRule => ({
  kind: 'price_above',
  symbol: 'AAPL',
  thresholds: { price: 1 },
  rearm,
  rearmMinutes: rearm === 'after_minutes' ? 5 : null,
});

/**
 * An idle replica's alert ticker asks for a pass only when one has something to do (a rule
 * active, or triggered and re-armed by its policy): without, a tick is this one read.
 */
describe('AlertRulesRepository.anyToEvaluate on PostgreSQL', () => {
  let medium: MediumModule;
  let sut: AlertRulesRepository;
  let userId: number;
  const setStatus = (id: number, status: string) =>
    medium
      .get(DataSource)
      .query(`UPDATE alert_rules SET status = $2, triggered_at = $3 WHERE id = $1`, [id, status, now]);

  beforeAll(async () => {
    medium = await bootMedium(AlertRulesWithUsersModule);
    sut = medium.get(AlertRulesRepository);
    userId = (await newUser(medium)).id;
  });
  afterAll(() => medium.close());

  it('answers no work without rules, with paused ones and with triggered ones that never re-arm', async () => {
    expect(await sut.anyToEvaluate()).toBe(false);
    const paused = (await sut.insert(userId, priceRule('never'), now, 100))!.id;
    await setStatus(paused, 'paused');
    const spent = (await sut.insert(userId, priceRule('never'), now, 100))!.id;
    await setStatus(spent, 'triggered');
    expect(await sut.anyToEvaluate()).toBe(false);
  });

  it('answers work for a triggered rule its policy re-arms, and for an active rule', async () => {
    const rearming = (await sut.insert(userId, priceRule('after_minutes'), now, 100))!.id;
    await setStatus(rearming, 'triggered');
    expect(await sut.anyToEvaluate()).toBe(true);
    await setStatus(rearming, 'paused');
    expect(await sut.anyToEvaluate()).toBe(false);
    await sut.insert(userId, priceRule('never'), now, 100);
    expect(await sut.anyToEvaluate()).toBe(true);
  });
});

/** The ticker's delivery question: a run only when a delivery is due or a user has a channel. */
describe('the delivery reads of an idle tick on PostgreSQL', () => {
  let medium: MediumModule;
  let deliveries: NotificationDeliveriesRepository;
  let settings: NotificationSettingsRepository;
  let userId: number;
  const sql = (text: string, values: unknown[] = []) => medium.get(DataSource).query(text, values);

  beforeAll(async () => {
    medium = await bootMedium(AlertRulesWithUsersModule);
    deliveries = medium.get(NotificationDeliveriesRepository);
    settings = medium.get(NotificationSettingsRepository);
    userId = (await newUser(medium)).id;
  });
  afterAll(() => medium.close());

  it('answers whether a user has a channel besides the inbox', async () => {
    expect(await settings.anyWithChannels()).toBe(false);
    await sql(`INSERT INTO notification_settings (user_id) VALUES ($1)`, [userId]);
    expect(await settings.anyWithChannels()).toBe(false);
    await sql(`UPDATE notification_settings SET email_enabled = true WHERE user_id = $1`, [userId]);
    expect(await settings.anyWithChannels()).toBe(true);
  });

  it('answers whether a pending delivery is due, not one due later or delivered', async () => {
    const [{ id }] = (await sql(
      `INSERT INTO notifications (user_id, kind, title, text, created_at) VALUES ($1, 'digest', 't', 't', $2) RETURNING id`,
      [userId, now],
    )) as { id: string }[];
    const later = new Date(now.getTime() + 60_000);
    await sql(
      `INSERT INTO notification_deliveries (notification_id, user_id, channel, due_at, next_attempt_at)
       VALUES ($1, $2, 'email', $3, $3)`,
      [id, userId, later],
    );
    expect(await deliveries.anyDue(now)).toBe(false);
    expect(await deliveries.anyDue(later)).toBe(true);
    await sql(`UPDATE notification_deliveries SET status = 'delivered' WHERE notification_id = $1`, [id]);
    expect(await deliveries.anyDue(later)).toBe(false);
  });
});
