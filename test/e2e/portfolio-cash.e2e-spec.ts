import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';

const BASE = '/api/v1/portfolio';

// The hand-computed ledger of docs/portfolio.md ("Dividends, splits and cash"):
//   01-02 deposit 10,000                          cash 10,000
//   01-06 buy 10 AAPL @ 150, fees 1               cash  8,499        cost basis 1,501
//   02-14 dividend AAPL 2.50, 0.38 withheld       cash  8,501.12
//   03-03 split AAPL 4:1                          40 shares, cost basis 1,501
//   03-04 interest 1.25                           cash  8,502.37
//   03-05 fee 3 on AAPL, fee 5 on the account     cash  8,494.37
//   03-06 withdrawal 500                          cash  7,994.37
//   03-07 sell 4 AAPL @ 40                        cash  8,154.37     realized 160 − 1,501 × 4/40 = 9.90
const LEDGER = [
  { side: 'deposit', amount: 10000, executed_at: '2025-01-02' },
  { symbol: 'AAPL', side: 'buy', quantity: 10, price: 150, fees: 1, executed_at: '2025-01-06' },
  { symbol: 'AAPL', side: 'dividend', amount: 2.5, withholding_tax: 0.38, executed_at: '2025-02-14' },
  { symbol: 'AAPL', side: 'split', ratio: '4:1', executed_at: '2025-03-03' },
  { side: 'interest', amount: 1.25, executed_at: '2025-03-04' },
  { symbol: 'AAPL', side: 'fee', amount: 3, executed_at: '2025-03-05', note: 'custody' },
  { side: 'fee', amount: 5, executed_at: '2025-03-05' },
  { side: 'withdrawal', amount: 500, executed_at: '2025-03-06' },
  { symbol: 'AAPL', side: 'sell', quantity: 4, price: 40, executed_at: '2025-03-07' },
];

// The rules and figures of these kinds are checked without HTTP in test/medium/portfolio-cash.medium-spec.ts.
describe('Ledger kinds beyond buy and sell over HTTP: dividends, splits, cash, and the income route', () => {
  const clock = new FakeClock(new Date('2025-03-12T22:00:00Z'));
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const { get } = portfolioCalls(() => sut);
  const post = (user: TestUser, payload: object) =>
    sut.inject({ method: 'POST', url: `${BASE}/transactions`, headers: user.headers, payload });
  const importCsv = (user: TestUser, csv: string) =>
    sut.inject({
      method: 'POST',
      url: `${BASE}/transactions/import`,
      headers: { ...user.headers, 'content-type': 'text/csv' },
      payload: csv,
    });
  const valueError = (loc: (string | number)[], error: string) => ({
    loc,
    msg: `Value error, ${error}`,
    type: 'value_error',
  });

  async function recordLedger(user: TestUser) {
    const answers = [];
    for (const entry of LEDGER) {
      const response = await post(user, entry);
      expect(response.statusCode).toBe(201);
      answers.push(response.json());
    }
    return answers;
  }

  it('records every kind with its own fields, a buy and a sell with exactly the fields they always had', async () => {
    const user = await registerUser(sut);
    const answers = await recordLedger(user);
    const created_at = clock.now().toISOString();
    const common = {
      id: expect.any(Number),
      account_id: expect.any(Number),
      note: null,
      created_at,
      updated_at: null,
    };
    expect(answers).toEqual([
      { ...common, symbol: null, side: 'deposit', amount: 10000, executed_at: '2025-01-02T00:00:00.000Z' },
      {
        ...common,
        symbol: 'AAPL',
        side: 'buy',
        quantity: 10,
        price: 150,
        fees: 1,
        executed_at: '2025-01-06T00:00:00.000Z',
        realized_pnl: null,
      },
      {
        ...common,
        symbol: 'AAPL',
        side: 'dividend',
        amount: 2.5,
        withholding_tax: 0.38,
        executed_at: '2025-02-14T00:00:00.000Z',
      },
      { ...common, symbol: 'AAPL', side: 'split', ratio: '4:1', executed_at: '2025-03-03T00:00:00.000Z' },
      { ...common, symbol: null, side: 'interest', amount: 1.25, executed_at: '2025-03-04T00:00:00.000Z' },
      {
        ...common,
        symbol: 'AAPL',
        side: 'fee',
        amount: 3,
        executed_at: '2025-03-05T00:00:00.000Z',
        note: 'custody',
      },
      { ...common, symbol: null, side: 'fee', amount: 5, executed_at: '2025-03-05T00:00:00.000Z' },
      {
        ...common,
        symbol: null,
        side: 'withdrawal',
        amount: 500,
        executed_at: '2025-03-06T00:00:00.000Z',
      },
      {
        ...common,
        symbol: 'AAPL',
        side: 'sell',
        quantity: 4,
        price: 40,
        fees: 0,
        executed_at: '2025-03-07T00:00:00.000Z',
        realized_pnl: 9.9,
      },
    ]);
    expect(Object.keys(answers[1])).toEqual([
      'id',
      'account_id',
      'symbol',
      'side',
      'quantity',
      'price',
      'fees',
      'executed_at',
      'note',
      'realized_pnl',
      'created_at',
      'updated_at',
    ]);

    const [position] = (await get(user, 'positions')).json().positions;
    expect(position).toMatchObject({ symbol: 'AAPL', quantity: 36, cost_basis: 1350.9 });
    const price = position.current_price as number;

    const plain = (await get(user, 'summary')).json();
    expect(plain).not.toHaveProperty('cash_balance');
    expect(plain).toMatchObject({ total_cost: 1350.9, realized_pnl: 9.9 });
    const withCash = (await get(user, 'summary?include_cash=true')).json();
    expect(withCash.cash_balance).toBe(8154.37);
    expect(withCash.total_value_with_cash).toBeCloseTo(36 * price + 8154.37, 2);

    // With the cash as one more holding: 36 × price + 8,154.37 in all
    const withCashTotal = 36 * price + 8154.37;
    const weighed = (await get(user, 'positions?include_cash=true')).json();
    expect(weighed).toEqual({
      positions: [{ ...position, weight: expect.closeTo((100 * 36 * price) / withCashTotal, 3) }],
      cash_balance: 8154.37,
      cash_weight: expect.closeTo((100 * 8154.37) / withCashTotal, 3),
    });
    expect(position.weight).toBe(100);
    const overview = (await get(user, '?include_cash=true')).json();
    expect(overview.summary).toMatchObject({ cash_balance: 8154.37 });
    expect(overview.cash_weight).toBe(weighed.cash_weight);
    expect(overview.top_positions[0].weight).toBe(weighed.positions[0].weight);
    expect((await get(user, '')).json()).not.toHaveProperty('cash_weight');

    const [lot] = (await get(user, 'lots')).json().lots;
    // (10 × 150 + 1) / 10 = 150.1 a share before the split, a quarter of it after
    expect(lot).toMatchObject({
      symbol: 'AAPL',
      acquired_on: '2025-01-06',
      quantity: 36,
      cost_basis: 1350.9,
    });
    expect(lot.cost_per_share).toBeCloseTo(37.525, 4);
  });

  it('answers the income of a period in the spec shape: money in cents, yields in percent', async () => {
    const user = await registerUser(sut);
    await recordLedger(user);
    const price = (await get(user, 'positions')).json().positions[0].current_price as number;
    const body = (await get(user, 'income?period=YTD')).json();
    expect(body).toEqual({
      period: 'YTD',
      totals: { dividends_gross: 2.5, withholding_tax: 0.38, dividends_net: 2.12, interest: 1.25 },
      by_month: [
        { month: '2025-02', dividends_gross: 2.5, withholding_tax: 0.38, dividends_net: 2.12, interest: 0 },
        { month: '2025-03', dividends_gross: 0, withholding_tax: 0, dividends_net: 0, interest: 1.25 },
      ],
      by_symbol: [{ symbol: 'AAPL', gross: 2.5, withholding_tax: 0.38, net: 2.12 }],
      trailing_12_months: {
        dividends_gross: 2.5,
        // 2.5 / 1,350.90 = 0.18506…%
        yield_on_cost: 0.1851,
        yield_on_value: expect.closeTo((100 * 2.5) / (36 * price), 4),
      },
      as_of: clock.now().toISOString(),
    });
    const invalid = await get(user, 'income?period=2Y');
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().detail[0].loc).toEqual(['query', 'period']);
  });

  it('answers a field a kind does not take, misses or cannot hold with 422 at the field', async () => {
    const user = await registerUser(sut);
    const cases: [object, object[]][] = [
      [
        { symbol: 'AAPL', side: 'deposit', amount: 10, executed_at: '2025-01-02' },
        [valueError(['body', 'symbol'], 'symbol is not accepted for a deposit')],
      ],
      [
        { symbol: 'AAPL', side: 'dividend', executed_at: '2025-01-02' },
        [{ loc: ['body', 'amount'], msg: 'Field required', type: 'missing' }],
      ],
      [
        { side: 'withdrawal', amount: 0, executed_at: '2025-01-02' },
        [
          {
            loc: ['body', 'amount'],
            msg: 'Input should be greater than 0',
            type: 'greater_than',
            ctx: { gt: 0 },
          },
        ],
      ],
    ];
    for (const [payload, detail] of cases) {
      const response = await post(user, payload);
      expect({ payload, status: response.statusCode, detail: response.json().detail }).toEqual({
        payload,
        status: 422,
        detail,
      });
    }
    expect((await get(user, 'transactions')).json().total).toBe(0);
  });

  it('imports an old-format file with 201, and refuses a bad file with 422 at each row and column', async () => {
    const user = await registerUser(sut);
    const old = await importCsv(user, 'date,symbol,side,quantity,price,fees\n2025-01-06,aapl,buy,10,150,1\n');
    expect(old.statusCode).toBe(201);
    expect(old.json().transactions[0]).toMatchObject({ symbol: 'AAPL', side: 'buy', quantity: 10, fees: 1 });

    const bad = await importCsv(
      user,
      ['date,type,symbol,amount', '2025-03-10,deposit,,50', '2025-03-10,dividend,MSFT,1'].join('\n'),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({
      detail: [
        {
          loc: ['body', 1, 'symbol'],
          msg: 'Value error, No position in MSFT was held before this dividend',
          type: 'value_error',
          ctx: { error: 'No position in MSFT was held before this dividend' },
        },
      ],
    });
    expect((await get(user, 'transactions')).json().total).toBe(1);
  });
});
