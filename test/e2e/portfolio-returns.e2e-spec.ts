import { MarketService } from '../../src/modules/market/market.service';
import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';
import { dataOf } from '../support/typed-api';

describe('portfolio returns: money-weighted beside time-weighted, value history', () => {
  // Wednesday 2025-03-12, 18:00 in New York: the day's session has closed
  const clock = new FakeClock(new Date('2025-03-12T22:00:00Z'));
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const { read, record } = portfolioCalls(() => sut);
  const closeOn = async (symbol: string, date: string) =>
    (await sut.app.get(MarketService).getHistory(symbol, { from: date, to: date })).bars[0].close;

  it('solves the XIRR of the cash flows for each period', async () => {
    const user = await registerUser(sut);
    const [c0, c1, cMonth, cT] = await Promise.all(
      ['2025-01-02', '2025-02-06', '2025-02-12', '2025-03-12'].map((date) => closeOn('AAPL', date)),
    );
    // one share at the close of Thursday 2025-01-02, another at the close of Thursday 2025-02-06
    await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 1,
      price: c0,
      executed_at: '2025-01-02T21:00:00Z',
    });
    await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 1,
      price: c1,
      executed_at: '2025-02-06T21:00:00Z',
    });
    const summary = dataOf(await read.summary(user));

    // ALL starts 2025-01-01; buys count from the start of their day: −c0 at day 0, −c1 at day 35
    // (2025-02-05), +2·cT at day 70 (2025-03-12). With v = (1 + R)^(−1/2):
    // 2·cT·v² − c1·v − c0 = 0 → v = (c1 + √(c1² + 8·cT·c0)) / (4·cT), R = v^(−2) − 1
    const v = (c1 + Math.sqrt(c1 ** 2 + 8 * cT * c0)) / (4 * cT);
    expect(summary.money_weighted_performance.ALL).toBeCloseTo(100 * (v ** -2 - 1), 3);
    // 1M from 2025-02-12: no money moved, so both are the price return
    expect(summary.money_weighted_performance['1M']).toBeCloseTo(100 * (cT / cMonth - 1), 3);
    expect(summary.performance['1M']).toBeCloseTo(100 * (cT / cMonth - 1), 3);
    // 1Y and 3M reach before the first trade
    expect(summary.money_weighted_performance['1Y']).toBeNull();
    expect(summary.money_weighted_performance['3M']).toBeNull();
    expect(Object.keys(summary)).toEqual([
      'total_value',
      'total_cost',
      'unrealized_pnl',
      'unrealized_pnl_percent',
      'realized_pnl',
      'day_change',
      'day_change_percent',
      'positions_count',
      'sector_allocation',
      'best_performer',
      'worst_performer',
      'performance',
      'as_of',
      'money_weighted_performance',
    ]);
  });

  const bars = async (symbol: string, from: string, to = '2025-03-12') =>
    (await sut.app.get(MarketService).getHistory(symbol, { from, to })).bars;

  describe('GET /portfolio/history', () => {
    let user: TestUser;
    let c0: number;
    let c1: number;
    beforeAll(async () => {
      user = await registerUser(sut);
      [c0, c1] = await Promise.all(['2025-01-02', '2025-02-06'].map((date) => closeOn('AAPL', date)));
      await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 1,
        price: c0,
        executed_at: '2025-01-02T21:00:00Z',
      });
      await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 1,
        price: c1,
        executed_at: '2025-02-06T21:00:00Z',
      });
    });

    it('charts every day since the first trade with value, invested capital, TWR and the benchmark', async () => {
      const response = await read.history(user, { period: 'ALL' });
      expect(response.response.status).toBe(200);
      const body = dataOf(response);
      expect(body).toMatchObject({ period: 'ALL', benchmark: '^GSPC', as_of: '2025-03-12T22:00:00.000Z' });
      const aapl = await bars('AAPL', '2025-01-02');
      const index = await bars('^GSPC', '2024-12-20');
      // one point per session from the first trade to today
      expect(body.points.map((point: { date: string }) => point.date)).toEqual(aapl.map((bar) => bar.date));
      // the benchmark's base: its last close on or before 2025-01-01, the day before the first trade
      const base = index.filter((bar) => bar.date <= '2025-01-01').pop()!.close;
      const close = (series: { date: string; close: number }[], date: string) =>
        series.find((bar) => bar.date === date)!.close;
      expect(body.points[0]).toEqual({
        date: '2025-01-02',
        market_value: expect.closeTo(c0, 2),
        net_invested: expect.closeTo(c0, 2),
        cumulative_return: 0,
        benchmark_return: expect.closeTo(100 * (close(index, '2025-01-02') / base - 1), 3),
      });
      // TWR: c0 → cp (Feb 5) on one share; Feb 6 buys at c1 counted from the day's start: ×2·c1 / (cp + c1);
      // then cT / c1 on both shares
      const [cp, cT] = [close(aapl, '2025-02-05'), close(aapl, '2025-03-12')];
      expect(body.points[body.points.length - 1]).toEqual({
        date: '2025-03-12',
        market_value: expect.closeTo(2 * cT, 2),
        net_invested: expect.closeTo(c0 + c1, 2),
        cumulative_return: expect.closeTo(100 * ((2 * cp * cT) / (c0 * (cp + c1)) - 1), 3),
        benchmark_return: expect.closeTo(100 * (close(index, '2025-03-12') / base - 1), 3),
      });
      // consistent with the summary's ALL
      const summary = dataOf(await read.summary(user));
      expect(body.points[body.points.length - 1].cumulative_return).toBe(summary.performance.ALL);
    });

    it('measures a period from its start and validates its parameters', async () => {
      const body = dataOf(await read.history(user, { period: '1M', benchmark: '^gspc' }));
      const [c12, c13] = await Promise.all(['2025-02-12', '2025-02-13'].map((date) => closeOn('AAPL', date)));
      const [i12, i13] = await Promise.all(
        ['2025-02-12', '2025-02-13'].map((date) => closeOn('^GSPC', date)),
      );
      expect(body.benchmark).toBe('^GSPC');
      expect(body.points[0]).toEqual({
        date: '2025-02-13',
        market_value: expect.closeTo(2 * c13, 2),
        net_invested: expect.closeTo(c0 + c1, 2),
        cumulative_return: expect.closeTo(100 * (c13 / c12 - 1), 3),
        benchmark_return: expect.closeTo(100 * (i13 / i12 - 1), 3),
      });

      // Raw: a period outside the enum is what the types forbid.
      const badPeriod = await sut.inject({
        url: '/api/v1/portfolio/history?period=2W',
        headers: user.headers,
      });
      expect(badPeriod.statusCode).toBe(422);
      expect(badPeriod.json().detail[0].loc).toEqual(['query', 'period']);
      const unknown = await read.history(user, { benchmark: 'NOPEX' });
      expect(unknown.response.status).toBe(404);
      expect(unknown.error).toEqual({ detail: 'Stock NOPEX not found' });
      const empty = await read.history(await registerUser(sut), { period: 'YTD' });
      expect(dataOf(empty)).toEqual({
        period: 'YTD',
        benchmark: '^GSPC',
        points: [],
        contributions: [],
        as_of: '2025-03-12T22:00:00.000Z',
      });
    });

    it("splits the period's return over the positions, a position sold in the period included", async () => {
      const twoSymbols = await registerUser(sut);
      const [a0, m0] = await Promise.all([closeOn('AAPL', '2025-01-02'), closeOn('MSFT', '2025-01-02')]);
      const [aS, mS, aX, mX, aT] = await Promise.all([
        closeOn('AAPL', '2025-02-12'),
        closeOn('MSFT', '2025-02-12'),
        closeOn('AAPL', '2025-02-28'),
        closeOn('MSFT', '2025-02-28'),
        closeOn('AAPL', '2025-03-12'),
      ]);
      for (const [symbol, price] of [
        ['AAPL', a0],
        ['MSFT', m0],
      ] as const) {
        await record(twoSymbols, {
          symbol,
          side: 'buy',
          quantity: 1,
          price,
          executed_at: '2025-01-02T21:00:00Z',
        });
      }
      // MSFT sold at the close of Friday 2025-02-28
      await record(twoSymbols, {
        symbol: 'MSFT',
        side: 'sell',
        quantity: 1,
        price: mX,
        executed_at: '2025-02-28T21:00:00Z',
      });
      const body = dataOf(await read.history(twoSymbols, { period: '1M' }));

      // 1M from the close of 2025-02-12, V_s = aS + mS. Without trades the linked daily shares
      // telescope to (close − close at start) / V_s; the sale at the close takes nothing from the day's
      // return, so the growth by 2025-02-28 is (aX + mX) / V_s, all of it in AAPL afterwards:
      //   MSFT = (mX − mS) / V_s,   AAPL = (aX − aS) / V_s + (aX + mX) / V_s · (aT − aX) / aX
      const start = aS + mS;
      const expected = [
        { symbol: 'AAPL', contribution: (aX - aS) / start + ((aX + mX) / start) * (aT / aX - 1) },
        { symbol: 'MSFT', contribution: (mX - mS) / start },
      ].sort((a, b) => b.contribution - a.contribution);
      expect(body.contributions).toEqual(
        expected.map(({ symbol, contribution }) => ({
          symbol,
          contribution: expect.closeTo(100 * contribution, 3),
        })),
      );
      const total = body.points[body.points.length - 1].cumulative_return;
      expect(total).toBeCloseTo(100 * ((aX + mX) / start) * (aT / aX) - 100, 3);
      expect(body.contributions[0].contribution + body.contributions[1].contribution).toBeCloseTo(total, 3);

      // since the first trade: both positions, summing to the total
      const all = dataOf(await read.history(twoSymbols, { period: 'ALL' }));
      expect(all.contributions.map(({ symbol }: { symbol: string }) => symbol).sort()).toEqual([
        'AAPL',
        'MSFT',
      ]);
      const allTotal = all.points[all.points.length - 1].cumulative_return;
      expect(
        all.contributions.reduce(
          (sum: number, { contribution }: { contribution: number }) => sum + contribution,
          0,
        ),
      ).toBeCloseTo(allTotal, 3);
    });

    it('thins a long history evenly to 400 points, keeping the first and last day', async () => {
      const longUser = await registerUser(sut);
      const start = await closeOn('AAPL', '2023-01-03');
      await record(longUser, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 1,
        price: start,
        executed_at: '2023-01-03T21:00:00Z',
      });
      const days = (await bars('AAPL', '2023-01-03')).map((bar) => bar.date);
      expect(days.length).toBeGreaterThan(400);
      const points = dataOf(await read.history(longUser, { period: '5Y' })).points as { date: string }[];
      expect(points).toHaveLength(400);
      expect(points.map((point) => point.date)).toEqual(
        Array.from({ length: 400 }, (_, i) => days[Math.round((i * (days.length - 1)) / 399)]),
      );
      // 1Y fits: every day after 2024-03-12
      const year = dataOf(await read.history(longUser, { period: '1Y' })).points as { date: string }[];
      expect(year.map((point) => point.date)).toEqual(days.filter((day) => day > '2024-03-12'));
    });
  });
});
