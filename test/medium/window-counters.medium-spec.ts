import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FixedWindow } from '../../src/common/rate-limit/fixed-window';
import { WindowCountersModule } from '../../src/common/rate-limit/window-counters.module';
import { WindowCountersRepository } from '../../src/common/rate-limit/window-counters.repository';
import { UsersModule } from '../../src/modules/users/users.module';
import { newUser } from './builders';
import { bootMedium, MediumModule } from './medium-module';

@Module({ imports: [WindowCountersModule, UsersModule] })
class CountersWithUsersModule {}

const window = new FixedWindow(60);
const opened = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => window.at(new Date(opened.getTime() + ms));

/** The one window-counter repository and the FixedWindow policy on a real database. */
describe('WindowCountersRepository on PostgreSQL', () => {
  let medium: MediumModule;
  let counters: WindowCountersRepository;

  beforeAll(async () => {
    medium = await bootMedium(CountersWithUsersModule);
    counters = medium.get(WindowCountersRepository);
  });
  afterAll(() => medium.close());

  const stored = (sql: string, values: unknown[] = []) => medium.get(DataSource).query(sql, values);

  it('counts login attempts in the window, restarts when it has ended, and gives a slot back', async () => {
    const count = (ms: number) => counters.countLoginAttempt('a@example.com', '192.0.2.1', at(ms));
    expect(await count(0)).toEqual({ count: 1, windowStartedAt: opened });
    expect(await count(10_000)).toEqual({ count: 2, windowStartedAt: opened });
    const third = await count(30_000);
    expect(third).toEqual({ count: 3, windowStartedAt: opened });
    expect(() => window.enforce(third, 2, 'locked', at(30_000).now)).toThrow(
      expect.objectContaining({ retryAfterSeconds: 30 }),
    );

    await counters.uncountLoginAttempt('a@example.com', '192.0.2.1');
    expect(await count(40_000)).toEqual({ count: 3, windowStartedAt: opened });
    expect(await count(60_000)).toEqual({ count: 1, windowStartedAt: at(60_000).now });

    await counters.uncountLoginAttempt('a@example.com', '192.0.2.1');
    await counters.uncountLoginAttempt('a@example.com', '192.0.2.1');
    expect(await stored(`SELECT failures FROM login_attempts WHERE email = 'a@example.com'`)).toEqual([
      { failures: 0 },
    ]);
  });

  it('counts a request for all clients only while its address is within its own limit', async () => {
    const request = (ip: string) => counters.countRequest(`login:ip:${ip}`, 'login:all', 2, at(0));
    expect(await request('192.0.2.10')).toEqual({
      address: { count: 1, windowStartedAt: opened },
      shared: { count: 1, windowStartedAt: opened },
    });
    await request('192.0.2.10');
    expect(await request('192.0.2.10')).toEqual({
      address: { count: 3, windowStartedAt: opened },
      shared: null,
    });
    expect((await request('192.0.2.11')).shared).toEqual({ count: 3, windowStartedAt: opened });

    expect(await counters.countRequest('refresh:ip:192.0.2.10', null, 2, at(0))).toEqual({
      address: { count: 1, windowStartedAt: opened },
      shared: null,
    });
    expect(await stored(`SELECT bucket FROM rate_limit_windows WHERE bucket LIKE 'refresh:%'`)).toEqual([
      { bucket: 'refresh:ip:192.0.2.10' },
    ]);
  });

  it('takes chat turns up to the limit, a refused turn counts nothing, and a new window starts over', async () => {
    const user = await newUser(medium);
    expect(await counters.chatWindowStartedAt(user.id)).toBeNull();
    expect(await counters.takeChatTurn(user.id, 2, at(0))).toBe(true);
    expect(await counters.takeChatTurn(user.id, 2, at(5_000))).toBe(true);
    expect(await counters.takeChatTurn(user.id, 2, at(20_000))).toBe(false);
    expect(await stored(`SELECT turns FROM assistant_chat_turns WHERE user_id = $1`, [user.id])).toEqual([
      { turns: 2 },
    ]);
    const startedAt = await counters.chatWindowStartedAt(user.id);
    expect(startedAt).toEqual(opened);
    expect(window.refusal('busy', opened, at(20_000).now).retryAfterSeconds).toBe(40);

    expect(await counters.takeChatTurn(user.id, 2, at(60_000))).toBe(true);
    expect(await counters.chatWindowStartedAt(user.id)).toEqual(at(60_000).now);
  });

  it('deletes only the windows that have ended, and says how many', async () => {
    await counters.countRequest('register:ip:198.51.100.1', null, 5, at(0));
    await counters.countRequest('register:ip:198.51.100.2', null, 5, at(30_000));
    const removed = await counters.deleteEnded('rate-limit-windows', at(60_000));
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(
      await stored(`SELECT bucket FROM rate_limit_windows WHERE bucket LIKE 'register:%' ORDER BY bucket`),
    ).toEqual([{ bucket: 'register:ip:198.51.100.2' }]);
    expect(await counters.deleteEnded('rate-limit-windows', at(60_000))).toBe(0);
  });
});
