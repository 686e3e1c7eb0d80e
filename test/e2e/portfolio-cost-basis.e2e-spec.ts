import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';

const BASE = '/api/v1/portfolio';

// The figures of each method and the rules of naming lots are checked without HTTP in
// test/medium/portfolio-cost-basis.medium-spec.ts.
describe('Cost-basis methods over HTTP: settings, specific lots', () => {
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

  it('answers lots a sell cannot name with 422 at the lot, and stores nothing', async () => {
    const user = await registerUser(sut);
    const { first } = await twoLots(user);
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
    for (const lots of [
      [],
      [{ lot_id: 0, quantity: 1 }],
      [{ lot_id: first, quantity: 0 }],
      [{ lot_id: 'x', quantity: 1 }],
    ]) {
      expect((await post(user, { ...twelveSold, lots })).statusCode).toBe(422);
    }
    expect((await get(user, 'transactions')).json().total).toBe(2);
  });

  it('answers a deletion or back-dated sell around a named lot with 409 and its detail', async () => {
    const user = await registerUser(sut);
    const { first, second } = await twoLots(user);
    // lot 3: 10 AAPL at 150 on 2025-01-10
    await record(user, { symbol: 'AAPL', side: 'buy', quantity: 10, price: 150, executed_at: '2025-01-10' });
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
    expect((await remove(user, sell)).statusCode).toBe(204);
    expect((await remove(user, second)).statusCode).toBe(204);
  });
});
