import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';

const BASE = '/api/v1/portfolio';

describe('Cost-basis methods: settings, specific lots and every cost figure by the method', () => {
  const clock = new FakeClock(new Date('2025-03-12T22:00:00Z'));
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const { get, record } = portfolioCalls(() => sut);
  const putSettings = (user: TestUser, payload: object) =>
    sut.inject({ method: 'PUT', url: `${BASE}/settings`, headers: user.headers, payload });
  const post = (user: TestUser, payload: object) =>
    sut.inject({ method: 'POST', url: `${BASE}/transactions`, headers: user.headers, payload });
  const remove = (user: TestUser, id: number) =>
    sut.inject({ method: 'DELETE', url: `${BASE}/transactions/${id}`, headers: user.headers });

  /** Lot 1: 10 AAPL at 100 (2024-01-05); lot 2: 5 AAPL at 200 + 5 fees = 201 a share (2025-01-06). */
  async function twoLots(user: TestUser): Promise<{ first: number; second: number }> {
    const first = await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 100,
      executed_at: '2024-01-05',
    });
    const second = await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 5,
      price: 200,
      fees: 5,
      executed_at: '2025-01-06',
    });
    return { first, second };
  }

  const twelveSold = {
    symbol: 'AAPL',
    side: 'sell',
    quantity: 12,
    price: 150,
    fees: 1,
    executed_at: '2025-02-03',
  };

  it('keeps per-user settings: defaults first, any subset changed, bad values refused', async () => {
    const user = await registerUser(sut);
    const other = await registerUser(sut);
    expect((await get(user, 'settings')).json()).toEqual({
      cost_basis_method: 'average',
      strict_cash: false,
    });

    const strict = await putSettings(user, { strict_cash: true });
    expect(strict.statusCode).toBe(200);
    expect(strict.json()).toEqual({ cost_basis_method: 'average', strict_cash: true });
    const fifo = await putSettings(user, { cost_basis_method: 'fifo' });
    expect(fifo.json()).toEqual({ cost_basis_method: 'fifo', strict_cash: true });
    expect((await get(user, 'settings')).json()).toEqual({ cost_basis_method: 'fifo', strict_cash: true });
    expect((await putSettings(user, {})).json()).toEqual({ cost_basis_method: 'fifo', strict_cash: true });
    // another user's settings are their own
    expect((await get(other, 'settings')).json()).toEqual({
      cost_basis_method: 'average',
      strict_cash: false,
    });

    for (const [payload, field] of [
      [{ cost_basis_method: 'lifo' }, 'cost_basis_method'],
      [{ cost_basis_method: null }, 'cost_basis_method'],
      [{ strict_cash: 'yes' }, 'strict_cash'],
      [{ strict_cash: null }, 'strict_cash'],
    ] as const) {
      const invalid = await putSettings(user, payload);
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json().detail[0].loc).toEqual(['body', field]);
    }
    expect((await get(user, 'settings')).json()).toEqual({ cost_basis_method: 'fifo', strict_cash: true });
  });

  it('computes positions, summary, lots, realized gains and realized_pnl by the method', async () => {
    const user = await registerUser(sut);
    const { first, second } = await twoLots(user);
    // the sell names all of lot 2 and 7 of lot 1; under average and fifo the names are kept, not used
    const sell = await record(user, {
      ...twelveSold,
      lots: [
        { lot_id: second, quantity: 5 },
        { lot_id: first, quantity: 7 },
      ],
    });
    const aapl = async () => {
      const position = (await get(user, 'positions')).json().positions[0];
      const summary = (await get(user, 'summary')).json();
      const transactions = (await get(user, 'transactions')).json().transactions as {
        id: number;
        realized_pnl: number | null;
      }[];
      return {
        quantity: position.quantity as number,
        price: position.current_price as number,
        costBasis: position.cost_basis as number,
        unrealized: position.unrealized_pnl as number,
        totalCost: summary.total_cost as number,
        realized: summary.realized_pnl as number,
        sellRealized: transactions.find((transaction) => transaction.id === sell)!.realized_pnl,
      };
    };

    // average: 3 × (1,000 + 1,005) / 15 = 401 left; 1,799 − 12 × 2,005 / 15 = 195 realized
    const average = await aapl();
    expect(average).toMatchObject({
      quantity: 3,
      costBasis: 401,
      totalCost: 401,
      realized: 195,
      sellRealized: 195,
    });
    expect(average.unrealized).toBeCloseTo(3 * average.price - 401, 2);

    // fifo: the 10 of lot 1 and 2 of lot 2 are sold (1,402); 3 of lot 2 left = 603; 1,799 − 1,402 = 397
    await putSettings(user, { cost_basis_method: 'fifo' });
    const fifo = await aapl();
    expect(fifo).toMatchObject({
      quantity: 3,
      costBasis: 603,
      totalCost: 603,
      realized: 397,
      sellRealized: 397,
    });
    expect(fifo.unrealized).toBeCloseTo(3 * fifo.price - 603, 2);
    const fifoLots = (await get(user, 'lots')).json();
    expect(fifoLots.method).toBe('fifo');
    expect(fifoLots.lots).toMatchObject([
      { lot_id: second, quantity: 3, cost_per_share: 201, cost_basis: 603 },
    ]);

    // specific: 5 × 201 + 7 × 100 = 1,705 sold; 3 of lot 1 left = 300; 1,799 − 1,705 = 94
    await putSettings(user, { cost_basis_method: 'specific' });
    const specific = await aapl();
    expect(specific).toMatchObject({
      quantity: 3,
      costBasis: 300,
      totalCost: 300,
      realized: 94,
      sellRealized: 94,
    });
    expect(specific.unrealized).toBeCloseTo(3 * specific.price - 300, 2);
    const lots = (await get(user, 'lots')).json();
    expect(lots).toMatchObject({
      method: 'specific',
      lots: [
        {
          lot_id: first,
          symbol: 'AAPL',
          acquired_on: '2024-01-05',
          quantity: 3,
          cost_per_share: 100,
          cost_basis: 300,
          // 362 days from 2024-01-05 to 2025-01-01, then 31 + 28 + 11
          holding_days: 432,
          term: 'long',
        },
      ],
    });
    // net proceeds 1,799 = 149.91667 a share: 7 → 1,049.42, 5 → 749.58 (one sell's portions in lot order)
    expect((await get(user, 'realized?year=2025')).json()).toEqual({
      year: 2025,
      method: 'specific',
      realized: [
        {
          symbol: 'AAPL',
          sell_id: sell,
          acquired_on: '2024-01-05',
          disposed_on: '2025-02-03',
          quantity: 7,
          proceeds: 1049.42,
          cost: 700,
          gain: 349.42,
          term: 'long',
        },
        {
          symbol: 'AAPL',
          sell_id: sell,
          acquired_on: '2025-01-06',
          disposed_on: '2025-02-03',
          quantity: 5,
          proceeds: 749.58,
          cost: 1005,
          gain: -255.42,
          term: 'short',
        },
      ],
      totals: { proceeds: 1799, cost: 1705, gain: 94, short_term_gain: -255.42, long_term_gain: 349.42 },
      as_of: '2025-03-12T22:00:00.000Z',
    });

    // a sell naming no lot closes the oldest under specific: 1 more of lot 1 at 150, cost 100
    const plain = await post(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 1,
      price: 150,
      executed_at: '2025-03-03',
    });
    expect(plain.statusCode).toBe(201);
    expect(plain.json().realized_pnl).toBe(50);
    expect((await get(user, 'lots')).json().lots).toMatchObject([{ lot_id: first, quantity: 2 }]);

    // back to average: the old figures, from the same ledger (2 × 2,005 / 15 = 267.33 left)
    await putSettings(user, { cost_basis_method: 'average' });
    const back = await aapl();
    expect(back).toMatchObject({ quantity: 2, costBasis: 267.33, sellRealized: 195 });
    // 195 + (150 − 133.67) = 211.33
    expect(back.realized).toBeCloseTo(211.33, 2);
  });

  it('refuses lots that are not the sell’s to name, and stores nothing', async () => {
    const user = await registerUser(sut);
    const stranger = await registerUser(sut);
    const { first, second } = await twoLots(user);
    const msft = await record(user, {
      symbol: 'MSFT',
      side: 'buy',
      quantity: 20,
      price: 300,
      executed_at: '2024-06-03',
    });
    const theirs = await record(stranger, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 20,
      price: 100,
      executed_at: '2024-01-05',
    });
    const refusal = async (payload: object) => {
      const response = await post(user, payload);
      expect(response.statusCode).toBe(422);
      return response.json().detail as { loc: (string | number)[]; msg: string }[];
    };

    expect(
      await refusal({
        symbol: 'AAPL',
        side: 'buy',
        quantity: 1,
        price: 1,
        executed_at: '2025-02-03',
        lots: [{ lot_id: first, quantity: 1 }],
      }),
    ).toMatchObject([{ loc: ['body', 'lots'], msg: 'Value error, Only a sell can name the lots it closes' }]);
    expect(await refusal({ ...twelveSold, lots: [{ lot_id: first, quantity: 5 }] })).toMatchObject([
      { loc: ['body', 'lots'], msg: "Value error, The lots' quantities must add up to the 12 shares sold" },
    ]);
    expect(
      await refusal({
        ...twelveSold,
        lots: [
          { lot_id: first, quantity: 6 },
          { lot_id: first, quantity: 6 },
        ],
      }),
    ).toMatchObject([
      { loc: ['body', 'lots', 1, 'lot_id'], msg: `Value error, Lot ${first} is named more than once` },
    ]);
    for (const lot of [msft, theirs, 999_999_999]) {
      expect(await refusal({ ...twelveSold, lots: [{ lot_id: lot, quantity: 12 }] })).toMatchObject([
        {
          loc: ['body', 'lots', 0, 'lot_id'],
          msg: `Value error, Lot ${lot} is not an open AAPL lot at the time of the sell`,
        },
      ]);
    }
    expect(
      await refusal({
        ...twelveSold,
        lots: [
          { lot_id: second, quantity: 6 },
          { lot_id: first, quantity: 6 },
        ],
      }),
    ).toMatchObject([
      {
        loc: ['body', 'lots', 0, 'quantity'],
        msg: `Value error, Lot ${second} has only 5 AAPL open at the time of the sell`,
      },
    ]);
    // lot 2 is bought after a sell of 2024-06-03
    expect(
      await refusal({
        ...twelveSold,
        quantity: 5,
        executed_at: '2024-06-03',
        lots: [{ lot_id: second, quantity: 5 }],
      }),
    ).toMatchObject([
      {
        loc: ['body', 'lots', 0, 'lot_id'],
        msg: `Value error, Lot ${second} is not an open AAPL lot at the time of the sell`,
      },
    ]);
    for (const lots of [
      [],
      [{ lot_id: 0, quantity: 1 }],
      [{ lot_id: first, quantity: 0 }],
      [{ lot_id: 'x', quantity: 1 }],
    ]) {
      expect((await post(user, { ...twelveSold, lots })).statusCode).toBe(422);
    }
    expect((await get(user, 'transactions')).json().total).toBe(3);
  });

  it('refuses to delete or back-date around a named lot with 409, and frees it with its sell', async () => {
    const user = await registerUser(sut);
    const { first, second } = await twoLots(user);
    // lot 3: 10 AAPL at 150 on 2025-01-10
    const third = await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 150,
      executed_at: '2025-01-10',
    });
    const sell = await record(user, {
      ...twelveSold,
      lots: [
        { lot_id: second, quantity: 5 },
        { lot_id: first, quantity: 7 },
      ],
    });

    const deletion = await remove(user, second);
    expect(deletion.statusCode).toBe(409);
    expect(deletion.json()).toEqual({
      detail: `Cannot delete this transaction: the sell ${sell} names lot ${second}, which would not stay open for it`,
    });

    // a sell of 4 before it, naming nothing, would close 4 of lot 1 first (FIFO), leaving 6 of the 7 named
    const backDated = await post(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 4,
      price: 120,
      executed_at: '2025-01-20',
    });
    expect(backDated.statusCode).toBe(409);
    expect(backDated.json()).toEqual({
      detail: `Cannot record this transaction: the sell ${sell} names lot ${first}, which would not stay open for it`,
    });
    // naming lot 3 instead leaves lot 1 alone
    const namingThird = await post(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 4,
      price: 120,
      executed_at: '2025-01-20',
      lots: [{ lot_id: third, quantity: 4 }],
    });
    expect(namingThird.statusCode).toBe(201);
    expect((await get(user, 'transactions')).json().total).toBe(5);

    expect((await remove(user, sell)).statusCode).toBe(204);
    expect((await remove(user, second)).statusCode).toBe(204);
  });

  it('lets only one of two concurrent sells name the same shares', async () => {
    const user = await registerUser(sut);
    const { second } = await twoLots(user);
    // each sells 5 of the 15 held, naming all 5 of lot 2: the ledger lock lets one in first
    const sells = await Promise.all(
      [1, 2].map(() =>
        post(user, {
          symbol: 'AAPL',
          side: 'sell',
          quantity: 5,
          price: 150,
          executed_at: '2025-02-03',
          lots: [{ lot_id: second, quantity: 5 }],
        }),
      ),
    );
    expect(sells.map((response) => response.statusCode).sort()).toEqual([201, 422]);
    const refused = sells.find((response) => response.statusCode === 422)!;
    expect(refused.json().detail).toMatchObject([
      {
        loc: ['body', 'lots', 0, 'lot_id'],
        msg: `Value error, Lot ${second} is not an open AAPL lot at the time of the sell`,
      },
    ]);
    expect((await get(user, 'transactions')).json().total).toBe(3);
  });
});
