import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/time/clock';
import { AlertEvaluatorService } from '../../src/modules/alerts/alert-evaluator.service';
import { FakeClock } from '../fakes/clock';
import { registerUser, TestUser } from '../factories/users.factory';
import { httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';

/** New York times on Wednesday 18 November 2026, a regular session (EST, UTC-5). */
const ny = (hhmm: string) => {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return new Date(Date.UTC(2026, 10, 18, hours + 5, minutes)).toISOString();
};
const SESSION_TIMES = [
  '09:45',
  '10:15',
  '10:45',
  '11:15',
  '11:45',
  '12:15',
  '12:45',
  '13:15',
  '13:45',
  '14:15',
  '14:45',
  '15:15',
  '15:45',
];

interface Quote {
  price: number;
  changePercent: number;
}
interface NotificationBody {
  id: number;
  rule_id: number;
  kind: string;
  title: string;
  data: Record<string, unknown>;
}

describe('alert evaluation on the replayed session', () => {
  const clock = new FakeClock(ny('09:45'));
  let sut: TestApp;
  let baseUrl: string;

  const call = (who: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, body?: object) =>
    httpCall(`${baseUrl}/api/v1${path}`, { method, body, headers: who.headers });
  const quoteAt = async (who: TestUser, symbol: string, at: string): Promise<Quote> => {
    clock.set(at);
    return (await call(who, 'GET', `/market/stock/${symbol}`)).body as Quote;
  };
  const evaluate = () => sut.app.get(AlertEvaluatorService).evaluate();
  const inbox = async (who: TestUser) =>
    ((await call(who, 'GET', '/notifications?limit=200')).body as { items: NotificationBody[] }).items;
  const createRule = async (who: TestUser, body: object) => {
    const answer = await call(who, 'POST', '/alerts', body);
    expect(answer.status).toBe(201);
    return (answer.body as { id: number }).id;
  };

  beforeAll(async () => {
    sut = await createTestApp({
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
      env: { MARKET_DATA_CACHE_TTL_SECONDS: '0' },
    });
    baseUrl = await sut.listen();
  });
  afterAll(() => sut.close());

  it('price_above fires once when the price crosses, not again while it hovers, and again once re-armed', async () => {
    const user = await registerUser(sut);
    const samples = [];
    for (const time of SESSION_TIMES)
      samples.push({ at: ny(time), ...(await quoteAt(user, 'AAPL', ny(time))) });
    const start = samples[0];
    const highest = samples.reduce((best, sample) => (sample.price > best.price ? sample : best));
    expect(highest.price).toBeGreaterThan(start.price);
    const threshold = Math.round(((start.price + highest.price) / 2) * 100) / 100;

    clock.set(start.at);
    const id = await createRule(user, { kind: 'price_above', symbol: 'AAPL', price: threshold });
    await evaluate();
    expect(await inbox(user)).toEqual([]);

    for (const sample of samples) {
      clock.set(sample.at);
      await evaluate();
    }
    const notifications = await inbox(user);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      rule_id: id,
      kind: 'price_above',
      title: `AAPL rose above ${threshold}`,
    });
    expect(notifications[0].data.price as number).toBeGreaterThanOrEqual(threshold);
    expect((await call(user, 'GET', `/alerts/${id}`)).body).toMatchObject({ status: 'triggered', arming: 1 });

    clock.set(highest.at);
    expect((await call(user, 'PATCH', `/alerts/${id}`, { status: 'active' })).body).toMatchObject({
      status: 'active',
      arming: 2,
    });
    await evaluate();
    await evaluate();
    expect(await inbox(user)).toHaveLength(2);
  });

  it('day_change fires on the absolute move since the previous close', async () => {
    const user = await registerUser(sut);
    const start = await quoteAt(user, 'MSFT', ny('09:45'));
    const later = await quoteAt(user, 'MSFT', ny('15:45'));
    const low = Math.min(Math.abs(start.changePercent), Math.abs(later.changePercent));
    const high = Math.max(Math.abs(start.changePercent), Math.abs(later.changePercent));
    const firstAt = Math.abs(start.changePercent) < Math.abs(later.changePercent) ? ny('15:45') : ny('09:45');
    const otherAt = firstAt === ny('15:45') ? ny('09:45') : ny('15:45');
    const threshold = Math.round(((low + high) / 2) * 100) / 100;
    expect(high - low).toBeGreaterThan(0.05);

    clock.set(otherAt);
    await createRule(user, { kind: 'day_change', symbol: 'MSFT', percent: threshold });
    await evaluate();
    expect(await inbox(user)).toEqual([]);
    clock.set(firstAt);
    await evaluate();
    await evaluate();
    const [notification, ...none] = await inbox(user);
    expect(none).toEqual([]);
    expect(Math.abs(notification.data.change_percent as number)).toBeGreaterThanOrEqual(threshold);
  });

  it('drawdown fires on the fall from the running peak since armed, once', async () => {
    const user = await registerUser(sut);
    const samples = [];
    for (const time of SESSION_TIMES)
      samples.push({ at: ny(time), ...(await quoteAt(user, 'JPM', ny(time))) });
    let peak = 0;
    let deepest = 0;
    for (const sample of samples) {
      peak = Math.max(peak, sample.price);
      deepest = Math.max(deepest, ((peak - sample.price) / peak) * 100);
    }
    expect(deepest).toBeGreaterThan(0.05);
    const threshold = Math.round(deepest * 0.8 * 1000) / 1000;

    clock.set(samples[0].at);
    const id = await createRule(user, { kind: 'drawdown', symbol: 'JPM', percent: threshold });
    for (const sample of samples) {
      clock.set(sample.at);
      await evaluate();
    }
    const notifications = await inbox(user);
    expect(notifications).toHaveLength(1);
    expect(notifications[0].data.drawdown_percent as number).toBeGreaterThanOrEqual(threshold);
    expect((await call(user, 'GET', `/alerts/${id}`)).body).toMatchObject({ status: 'triggered' });
  });

  it('watchlist_move fires once for the whole list', async () => {
    const user = await registerUser(sut);
    const created = await call(user, 'POST', '/preferences', {
      experience_level: 'beginner',
      watchlist: ['AAPL', 'MSFT', 'XOM'],
    });
    expect(created.status).toBe(201);
    const moves = [];
    for (const symbol of ['AAPL', 'MSFT', 'XOM'])
      moves.push(Math.abs((await quoteAt(user, symbol, ny('15:45'))).changePercent));
    const threshold = Math.max(Math.max(...moves) * 0.5, 0.01);
    clock.set(ny('15:45'));
    await createRule(user, { kind: 'watchlist_move', percent: Math.round(threshold * 100) / 100 });
    await evaluate();
    await evaluate();
    const notifications = await inbox(user);
    expect(notifications).toHaveLength(1);
    expect(notifications[0].kind).toBe('watchlist_move');
    expect((notifications[0].data.movers as unknown[]).length).toBeGreaterThan(0);
  });

  it('after_minutes and next_session re-arm the rule by themselves', async () => {
    const user = await registerUser(sut);
    clock.set(ny('10:00'));
    const afterMinutes = await createRule(user, {
      kind: 'price_above',
      symbol: 'AAPL',
      price: 1,
      rearm: 'after_minutes',
      rearm_minutes: 30,
    });
    const nextSession = await createRule(user, {
      kind: 'price_above',
      symbol: 'MSFT',
      price: 1,
      rearm: 'next_session',
    });
    await evaluate();
    expect(await inbox(user)).toHaveLength(2);
    clock.set(ny('10:20'));
    await evaluate();
    expect(await inbox(user)).toHaveLength(2);
    clock.set(ny('10:31'));
    await evaluate();
    const afterHalfHour = await inbox(user);
    expect(afterHalfHour.map((item) => item.rule_id).sort()).toEqual(
      [afterMinutes, afterMinutes, nextSession].sort(),
    );
    clock.set('2026-11-19T14:29:00Z'); // Thursday 09:29 in New York: not open yet
    await evaluate();
    expect((await inbox(user)).filter((item) => item.rule_id === nextSession)).toHaveLength(1);
    clock.set('2026-11-19T14:31:00Z');
    await evaluate();
    expect((await inbox(user)).filter((item) => item.rule_id === nextSession)).toHaveLength(2);
  });

  it('writes each notification once when passes run at the same time', async () => {
    const user = await registerUser(sut);
    clock.set(ny('11:00'));
    const ids = [];
    for (const symbol of ['AAPL', 'MSFT', 'JPM', 'XOM', 'KO'])
      ids.push(await createRule(user, { kind: 'price_above', symbol, price: 1 }));
    await Promise.all(Array.from({ length: 6 }, () => evaluate()));
    const rows = await sut.app
      .get(DataSource)
      .query(`SELECT rule_id, arming FROM notifications WHERE user_id = $1 ORDER BY rule_id`, [user.id]);
    expect(rows).toEqual(ids.map((rule_id) => ({ rule_id, arming: 1 })));
  });

  it('the inbox lists newest first, pages, counts the unread and marks them read', async () => {
    const user = await registerUser(sut);
    const stranger = await registerUser(sut);
    clock.set(ny('12:00'));
    for (const symbol of ['AAPL', 'MSFT', 'JPM'])
      await createRule(user, { kind: 'price_above', symbol, price: 1 });
    await evaluate();
    const all = await call(user, 'GET', '/notifications');
    const { items, total, unread_count } = all.body as {
      items: NotificationBody[];
      total: number;
      unread_count: number;
    };
    expect({ total, unread_count }).toEqual({ total: 3, unread_count: 3 });
    const ids = items.map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const page = await call(user, 'GET', '/notifications?skip=1&limit=1');
    expect((page.body as { items: NotificationBody[] }).items.map((item) => item.id)).toEqual([ids[1]]);

    expect(await call(stranger, 'POST', `/notifications/${ids[0]}/read`)).toMatchObject({
      status: 404,
      body: { detail: 'Notification not found' },
    });
    const read = await call(user, 'POST', `/notifications/${ids[0]}/read`);
    expect(read).toMatchObject({
      status: 200,
      body: { id: ids[0], read_at: new Date(ny('12:00')).toISOString() },
    });
    const unread = await call(user, 'GET', '/notifications?unread_only=true');
    expect(unread.body).toMatchObject({ total: 2, unread_count: 2 });
    expect((unread.body as { items: NotificationBody[] }).items.map((item) => item.id)).toEqual(ids.slice(1));

    expect(await call(user, 'POST', '/notifications/read-all')).toMatchObject({
      status: 200,
      body: { marked_read: 2 },
    });
    expect((await call(user, 'GET', '/notifications')).body).toMatchObject({ total: 3, unread_count: 0 });
    expect((await call(stranger, 'GET', '/notifications')).body).toEqual({
      items: [],
      total: 0,
      unread_count: 0,
    });
    expect((await call(user, 'GET', '/notifications?limit=0')).status).toBe(422);
  });

  it('news fires once on the first item published after arming; sentiment_shift once the average moves', async () => {
    const user = await registerUser(sut);
    clock.set(ny('09:45'));
    const news = await createRule(user, { kind: 'news', symbol: 'AAPL' });
    const shift = await createRule(user, {
      kind: 'sentiment_shift',
      symbol: 'AAPL',
      window_days: 2,
      delta: 0.01,
    });
    const armedAt = Date.parse(ny('09:45'));
    for (let step = 0; step < 4 * 24; step++) {
      clock.set(new Date(armedAt + step * 3_600_000));
      await evaluate();
    }
    const notifications = await inbox(user);
    const newsAlerts = notifications.filter((item) => item.rule_id === news);
    expect(newsAlerts).toHaveLength(1);
    expect(Date.parse(newsAlerts[0].data.published_at as string)).toBeGreaterThan(armedAt);
    expect(newsAlerts[0].data).toMatchObject({ symbol: 'AAPL', url: expect.any(String) });
    const shifts = notifications.filter((item) => item.rule_id === shift);
    expect(shifts).toHaveLength(1);
    const { baseline, average } = shifts[0].data as { baseline: number; average: number };
    expect(Math.abs(average - baseline)).toBeGreaterThanOrEqual(0.01);
  });

  it('risk_level fires once when the portfolio’s risk level is not the user’s tolerance, and day_change on the portfolio', async () => {
    const user = await registerUser(sut);
    clock.set(ny('15:45'));
    expect(
      (
        await call(user, 'POST', '/preferences', {
          experience_level: 'beginner',
          risk_tolerance: 'conservative',
        })
      ).status,
    ).toBe(201);
    const bought = await call(user, 'POST', '/portfolio/transactions', {
      symbol: 'NVDA',
      side: 'buy',
      quantity: 100,
      price: 20,
      executed_at: '2025-06-02',
    });
    expect(bought.status).toBe(201);
    const risk = await call(user, 'GET', '/portfolio/risk-metrics');
    expect(risk.body).toMatchObject({ matches_preferences: false });
    const rule = await createRule(user, { kind: 'risk_level' });
    const summary = (await call(user, 'GET', '/portfolio/summary')).body as Record<string, number>;
    const dayMove = Math.abs(summary.day_change_percent ?? summary.dayChangePercent);
    const portfolioRule = await createRule(user, {
      kind: 'day_change',
      symbol: 'portfolio',
      percent: Math.max(0.01, Math.floor(dayMove * 50) / 100),
    });
    await evaluate();
    await evaluate();
    const notifications = await inbox(user);
    expect(notifications.filter((item) => item.rule_id === rule)).toEqual([
      expect.objectContaining({
        kind: 'risk_level',
        data: expect.objectContaining({ risk_tolerance: 'conservative' }),
      }),
    ]);
    expect(notifications.filter((item) => item.rule_id === portfolioRule)).toHaveLength(1);
  });
});
