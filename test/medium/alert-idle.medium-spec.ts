import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NewAlertRule } from '../../src/modules/alerts/alert-rule';
import { AlertRulesRepository } from '../../src/modules/alerts/alert-rules.repository';
import { UsersModule } from '../../src/modules/users/users.module';
import { newUser } from './builders';
import { bootMedium, MediumModule } from './medium-module';

@Module({ imports: [UsersModule], providers: [AlertRulesRepository] })
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
