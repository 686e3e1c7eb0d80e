import { MarketService } from '../../src/modules/market/market.service';
import { registerUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';
import { dataOf } from '../support/typed-api';
import { FakeClock } from '../fakes/clock';

describe('portfolio on the exchange calendar (New York dates, NYSE sessions)', () => {
  const clock = new FakeClock('2025-03-12T15:00:00Z');
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const { read, record } = portfolioCalls(() => sut);
  const closes = async (symbol: string, from: string) =>
    (await sut.app.get(MarketService).getHistory(symbol, { from })).bars.map((bar) => ({
      date: bar.date,
      close: bar.close,
    }));
  const closeOn = (series: { date: string; close: number }[], date: string) =>
    series.find((bar) => bar.date === date)!.close;

  it('ends the risk window at the last closed session unless include_today asks for the open one', async () => {
    // Wednesday 2025-03-12 11:00 in New York (EDT): the session is running
    clock.set('2025-03-12T15:00:00Z');
    const user = await registerUser(sut);
    await record(user, { symbol: 'AAPL', side: 'buy', quantity: 10, price: 100, executed_at: '2025-01-06' });

    const closed = dataOf(await read.riskMetrics(user, { lookback_days: 20 }));
    const series = await closes('AAPL', '2025-01-01');
    // 20 returns need 21 closes up to Tuesday's; Presidents' Day (Feb 17) has none
    expect(series.map((bar) => bar.date)).not.toContain('2025-02-17');
    const upToTuesday = series.filter((bar) => bar.date <= '2025-03-11').slice(-21);
    expect(closed.window).toEqual({
      start_date: upToTuesday[0].date,
      end_date: '2025-03-11',
      observations: 20,
    });
    const returns = upToTuesday.slice(1).map((bar, i) => bar.close / upToTuesday[i].close - 1);
    const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
    const sd = Math.sqrt(returns.reduce((sum, r) => sum + (r - mean) ** 2, 0) / (returns.length - 1));
    expect(closed.volatility).toBeCloseTo(sd * Math.sqrt(252), 6);

    const open = dataOf(await read.riskMetrics(user, { lookback_days: 20, include_today: true }));
    expect(open.window).toMatchObject({ end_date: '2025-03-12', observations: 20 });

    // Raw: a boolean spelled `maybe` is what the types forbid.
    const invalid = await sut.inject({
      url: '/api/v1/portfolio/risk-metrics?include_today=maybe',
      headers: user.headers,
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().detail[0]).toMatchObject({ loc: ['query', 'include_today'], type: 'bool_parsing' });

    // Christmas Eve closes at 13:00: at 14:00 its session counts as a full day
    clock.set('2024-12-24T19:00:00Z');
    const earlyClose = dataOf(await read.riskMetrics(user, { lookback_days: 20 }));
    expect(earlyClose.window!.end_date).toBe('2024-12-24');
    // Monday 2024-12-23 at 10:00 New York: still Friday's window
    clock.set('2024-12-23T15:00:00Z');
    expect(dataOf(await read.riskMetrics(user, { lookback_days: 20 })).window!.end_date).toBe('2024-12-20');
  });

  it('fetches enough calendar days for N sessions across the holidays', async () => {
    clock.set('2025-03-12T22:00:00Z');
    const user = await registerUser(sut);
    await record(user, { symbol: 'AAPL', side: 'buy', quantity: 1, price: 100, executed_at: '2019-01-02' });
    // 1,260 returns: 1,261 closes reach back to 2020-03-06 over 48 weekday holidays; 7/5 of them plus
    // 14 calendar days (the former window, from 2020-04-27) would have held only 1,226
    const body = dataOf(await read.riskMetrics(user, { lookback_days: 1260 }));
    expect(body.window!.observations).toBe(1260);
    const closes1261 = (await closes('AAPL', '2019-06-01')).slice(-1261);
    expect(body.window).toEqual({
      start_date: closes1261[0].date,
      end_date: '2025-03-12',
      observations: 1260,
    });
    expect(body.notes.join(' ')).not.toMatch(/daily returns are available/);
  });

  it('takes the periods from New York’s date between midnight UTC and midnight New York', async () => {
    // 2025-03-01 03:00 UTC is still Friday 2025-02-28 in New York (EST)
    clock.set('2025-03-01T03:00:00Z');
    const user = await registerUser(sut);
    const series = await closes('AAPL', '2024-11-01');
    const start = closeOn(series, '2024-12-02');
    await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 1,
      price: start,
      executed_at: '2024-12-02T21:00:00Z',
    });
    const performance = dataOf(await read.summary(user)).performance;
    const last = closeOn(series, '2025-02-28');
    // 1M runs from 2025-01-28 (a month before New York's Feb 28), not from UTC's 2025-02-01
    expect(performance['1M']).toBeCloseTo(100 * (last / closeOn(series, '2025-01-28') - 1), 3);
    expect(performance.YTD).toBeCloseTo(100 * (last / closeOn(series, '2024-12-31') - 1), 3);
    expect(performance.ALL).toBeCloseTo(100 * (last / start - 1), 3);
  });

  it('returns null for periods after everything was sold, and the return of the capital at work before', async () => {
    clock.set('2025-03-12T15:00:00Z');
    const user = await registerUser(sut);
    const series = await closes('AAPL', '2024-05-01');
    const bought = closeOn(series, '2024-06-03');
    const sold = closeOn(series, '2024-11-01');
    // both at the close (16:00 New York = 20:00 UTC in summer time, 21:00 in winter)
    await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 3,
      price: bought,
      executed_at: '2024-06-03T20:00:00Z',
    });
    await record(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 3,
      price: sold,
      executed_at: '2024-11-01T20:00:00Z',
    });
    const summary = dataOf(await read.summary(user));
    expect(summary.positions_count).toBe(0);
    expect(summary.performance).toEqual({
      '1M': null,
      '3M': null,
      YTD: null,
      '1Y': null,
      ALL: expect.closeTo(100 * (sold / bought - 1), 3),
    });
  });
});
