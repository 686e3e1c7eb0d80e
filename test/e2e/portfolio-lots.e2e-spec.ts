import { registerUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';

const BASE = '/api/v1/portfolio';

// Which lots a sell closes and the gains it realizes are checked without HTTP in
// test/medium/portfolio-lots.medium-spec.ts.
describe('GET /portfolio/lots and /portfolio/realized: FIFO tax lots over HTTP', () => {
  const clock = new FakeClock(new Date('2025-03-12T22:00:00Z'));
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const { get, record } = portfolioCalls(() => sut);

  it('answers the open lots in the spec shape, rounded at the edge', async () => {
    const user = await registerUser(sut);
    expect((await get(user, 'lots')).json()).toEqual({
      method: 'fifo',
      lots: [],
      as_of: '2025-03-12T22:00:00.000Z',
    });
    const msftLot = await record(user, {
      symbol: 'MSFT',
      side: 'buy',
      quantity: 1,
      price: 300,
      executed_at: '2023-06-01',
    });
    await record(user, { symbol: 'AAPL', side: 'buy', quantity: 10, price: 100, executed_at: '2024-01-05' });
    const aaplLot = await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 5,
      price: 200,
      fees: 5,
      executed_at: '2025-01-06',
    });
    // 12 sold: all 10 of January 2024, then 2 of the 5 of January 2025
    await record(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 12,
      price: 150,
      fees: 1,
      executed_at: '2025-02-03',
    });

    const positions = (await get(user, 'positions')).json().positions as {
      symbol: string;
      current_price: number;
    }[];
    const priceOf = (symbol: string) =>
      positions.find((position) => position.symbol === symbol)!.current_price;
    const body = (await get(user, 'lots')).json();
    const aapl = priceOf('AAPL');
    const msft = priceOf('MSFT');
    expect(body.lots).toEqual([
      {
        lot_id: aaplLot,
        account_id: expect.any(Number),
        symbol: 'AAPL',
        acquired_on: '2025-01-06',
        quantity: 3,
        // (5 × 200 + 5) / 5
        cost_per_share: 201,
        cost_basis: 603,
        current_price: aapl,
        market_value: expect.closeTo(3 * aapl, 2),
        unrealized_pnl: expect.closeTo(3 * aapl - 603, 2),
        unrealized_pnl_percent: expect.closeTo((100 * (3 * aapl - 603)) / 603, 3),
        // Jan 6 → Mar 12: 25 + 28 + 12
        holding_days: 65,
        term: 'short',
      },
      {
        lot_id: msftLot,
        account_id: expect.any(Number),
        symbol: 'MSFT',
        acquired_on: '2023-06-01',
        quantity: 1,
        cost_per_share: 300,
        cost_basis: 300,
        current_price: msft,
        market_value: expect.closeTo(msft, 2),
        unrealized_pnl: expect.closeTo(msft - 300, 2),
        unrealized_pnl_percent: expect.closeTo((100 * (msft - 300)) / 300, 3),
        // 366 days to 2024-06-01 (29 Feb 2024 between), 273 to 2025-03-01, 11 more
        holding_days: 650,
        term: 'long',
      },
    ]);
  });

  it('answers the realized gains of a year in the spec shape, and 422 for a year out of range', async () => {
    const user = await registerUser(sut);
    await record(user, { symbol: 'AAPL', side: 'buy', quantity: 10, price: 100, executed_at: '2024-01-05' });
    await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 5,
      price: 200,
      fees: 5,
      executed_at: '2025-01-06',
    });
    await record(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 12,
      price: 150,
      fees: 1,
      executed_at: '2025-02-03',
    });
    const transactions = (await get(user, 'transactions')).json().transactions as {
      id: number;
      side: string;
    }[];
    const sellId = transactions.find((transaction) => transaction.side === 'sell')!.id;

    // net proceeds 12 × 150 − 1 = 1,799, shared 10 : 2
    const expected = {
      year: 2025,
      method: 'fifo',
      realized: [
        {
          symbol: 'AAPL',
          sell_id: sellId,
          acquired_on: '2024-01-05',
          disposed_on: '2025-02-03',
          quantity: 10,
          proceeds: 1499.17,
          cost: 1000,
          gain: 499.17,
          term: 'long',
        },
        {
          symbol: 'AAPL',
          sell_id: sellId,
          acquired_on: '2025-01-06',
          disposed_on: '2025-02-03',
          quantity: 2,
          proceeds: 299.83,
          // 2 × 201
          cost: 402,
          gain: -102.17,
          term: 'short',
        },
      ],
      totals: { proceeds: 1799, cost: 1402, gain: 397, short_term_gain: -102.17, long_term_gain: 499.17 },
      as_of: '2025-03-12T22:00:00.000Z',
    };
    expect((await get(user, 'realized?year=2025')).json()).toEqual(expected);
    const invalid = await get(user, 'realized?year=1800');
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().detail[0].loc).toEqual(['query', 'year']);
  });

  it('needs a token', async () => {
    expect((await sut.inject({ url: `${BASE}/lots` })).statusCode).toBe(401);
    expect((await sut.inject({ url: `${BASE}/realized` })).statusCode).toBe(401);
  });
});
