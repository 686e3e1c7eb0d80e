import { MarketService } from '../../src/modules/market/market.service';
import { registerUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';
import { dataOf } from '../support/typed-api';

// The replay puts AAPL's 7:1 split of 2014-06-09 on Thursday 2025-04-10 (GET
// /market/stock/AAPL/splits); its closes are split-adjusted, continuous across it.
describe('portfolio valuation across a split the replay knows (one price basis)', () => {
  // Wednesday 2025-04-16, 18:00 in New York: the day's session has closed
  const clock = new FakeClock(new Date('2025-04-16T22:00:00Z'));
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const { read, record } = portfolioCalls(() => sut);
  const adjustedCloses = async () =>
    new Map(
      (
        await sut.app.get(MarketService).getHistory('AAPL', { from: '2025-04-07', to: '2025-04-16' })
      ).bars.map((bar) => [bar.date, bar.close]),
    );
  type Point = { date: string; market_value: number; cumulative_return: number };

  it('values shares × close on each side of a recorded split, with no fake jump', async () => {
    const user = await registerUser(sut);
    const closes = await adjustedCloses();
    // 10 shares at the close of Monday 2025-04-07, as traded then: 7 × the adjusted close
    const paid = 7 * closes.get('2025-04-07')!;
    await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: paid,
      executed_at: '2025-04-07T20:00:00Z',
    });
    await record(user, { symbol: 'AAPL', side: 'split', ratio: '7:1', executed_at: '2025-04-10T13:30:00Z' });

    const response = await read.history(user, { period: 'ALL' });
    expect(response.response.status).toBe(200);
    const points: Point[] = dataOf(response).points;
    expect(points.map((point) => point.date)).toEqual([...closes.keys()]);
    for (const point of points) {
      const shares = point.date < '2025-04-10' ? 10 * 7 : 70;
      expect(point.market_value).toBeCloseTo(shares * closes.get(point.date)!, 1);
    }
    const [before, on] = points.filter((point) => ['2025-04-09', '2025-04-10'].includes(point.date));
    expect(on.market_value / before.market_value).toBeCloseTo(
      closes.get('2025-04-10')! / closes.get('2025-04-09')!,
      4,
    );
    // the return is the price's, not +600 %
    const last = points[points.length - 1];
    expect(last.cumulative_return).toBeCloseTo(
      100 * (closes.get('2025-04-16')! / closes.get('2025-04-07')! - 1),
      2,
    );

    const summary = dataOf(await read.summary(user));
    expect(summary.total_value).toBeCloseTo(70 * closes.get('2025-04-16')!, 1);
    expect(summary.performance.ALL).toBe(last.cumulative_return);
    expect(Math.abs(summary.performance['1M']!)).toBeLessThan(50);
  });

  it('keeps a ledger recorded on the adjusted basis (no split entry) valued at the adjusted closes', async () => {
    const user = await registerUser(sut);
    const closes = await adjustedCloses();
    await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 70,
      price: closes.get('2025-04-07')!,
      executed_at: '2025-04-07T20:00:00Z',
    });
    const points: Point[] = dataOf(await read.history(user, { period: 'ALL' })).points;
    for (const point of points) expect(point.market_value).toBeCloseTo(70 * closes.get(point.date)!, 1);
  });
});
