import type { Schemas } from '../../client';
import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';
import { asCsv, dataOf, typedApi } from '../support/typed-api';

const BASE = '/api/v1/portfolio';

describe('Portfolio accounts', () => {
  const clock = new FakeClock(new Date('2025-03-12T22:00:00Z'));
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const { read, record } = portfolioCalls(() => sut);
  const as = (user: TestUser) => typedApi(sut, user);
  const trade = (user: TestUser, body: Schemas['CreateTransactionDto']) =>
    as(user).POST('/api/v1/portfolio/transactions', { body });
  const openAccount = (user: TestUser, body: Schemas['CreateAccountDto']) =>
    as(user).POST('/api/v1/portfolio/accounts', { body });
  const closeAccount = (user: TestUser, id: number, moveTo?: number) =>
    typedApi(sut, user).DELETE('/api/v1/portfolio/accounts/{id}', {
      params: { path: { id }, query: { move_to: moveTo } },
    });
  const accounts = async (user: TestUser) => dataOf(await read.accounts(user)).accounts;
  const open = async (user: TestUser, body: Schemas['CreateAccountDto']) => {
    const response = await openAccount(user, body);
    expect(response.response.status).toBe(201);
    return dataOf(response);
  };

  it('gives every user a default account that unnamed writes go to', async () => {
    const user = await registerUser(sut);
    const [only] = await accounts(user);
    expect(only).toEqual({
      id: expect.any(Number),
      name: 'Default',
      kind: 'taxable',
      brokerage: null,
      opened_on: null,
      is_default: true,
      transaction_count: 0,
      created_at: expect.any(String),
    });
    const response = await trade(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 1,
      price: 100,
      executed_at: '2025-01-06',
    });
    expect(response.data).toMatchObject({ account_id: only.id });
    expect((await accounts(user))[0].transaction_count).toBe(1);
  });

  it('opens, renames and re-defaults accounts, and validates them', async () => {
    const user = await registerUser(sut);
    const ira = await open(user, {
      name: ' Fidelity IRA ',
      kind: 'ira',
      brokerage: 'fidelity',
      opened_on: '2019-03-01',
    });
    expect(ira).toMatchObject({
      name: 'Fidelity IRA',
      kind: 'ira',
      brokerage: 'fidelity',
      opened_on: '2019-03-01',
    });
    expect((await openAccount(user, { name: 'fidelity ira', kind: 'ira' })).error).toEqual({
      detail: 'An account named fidelity ira already exists',
    });
    // Raw: a kind and a brokerage outside their enums.
    const invalid = await sut.inject({
      method: 'POST',
      url: `${BASE}/accounts`,
      headers: user.headers,
      payload: { name: 'X', kind: 'savings', brokerage: 'mybank' },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().detail.map((issue: { loc: string[] }) => issue.loc)).toEqual([
      ['body', 'kind'],
      ['body', 'brokerage'],
    ]);
    const renamed = await as(user).PATCH('/api/v1/portfolio/accounts/{id}', {
      params: { path: { id: ira.id } },
      body: { name: 'Roth', kind: 'roth_ira', is_default: true },
    });
    expect(renamed.data).toMatchObject({
      name: 'Roth',
      kind: 'roth_ira',
      brokerage: 'fidelity',
      is_default: true,
    });
    expect((await accounts(user)).map((account) => [account.name, account.is_default])).toEqual([
      ['Roth', true],
      ['Default', false],
    ]);
    const other = await registerUser(sut);
    expect((await read.account(other, ira.id)).response.status).toBe(404);
    expect((await read.positions(other, { account_id: ira.id })).error).toEqual({
      detail: 'Account not found',
    });
    expect(
      (
        await trade(other, {
          side: 'deposit',
          amount: 1,
          executed_at: '2025-01-02',
          account_id: ira.id,
        })
      ).response.status,
    ).toBe(404);
  });

  // Taxable (the default): 10 AAPL at 100 + 2 fees on 2024-01-02.
  // IRA: deposit 3,000 on 2024-01-31; 10 AAPL at 200 on 2024-02-01; 5 sold at 300 − 1 fee on 2024-03-01.
  //   IRA alone: average 200 a share, realized 1,500 − 1 − 1,000 = 499; 5 left costing 1,000;
  //   cash 3,000 − 2,000 + 1,499 = 2,499. (Combined average cost would have said 1,499 − 750.5 = 748.5.)
  //   Taxable: 10 shares costing 1,002, cash −1,002, nothing realized.
  //   Combined: 15 shares costing 2,002, realized 499, cash 1,497.
  it('keeps lots, cost basis, cash and realized P&L per account, and answers each or all combined', async () => {
    const user = await registerUser(sut);
    const [taxable] = await accounts(user);
    const ira = await open(user, { name: 'IRA', kind: 'ira' });
    const lotA = await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 100,
      fees: 2,
      executed_at: '2024-01-02',
    });
    await record(user, { side: 'deposit', amount: 3000, executed_at: '2024-01-31', account_id: ira.id });
    const lotB = await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 200,
      executed_at: '2024-02-01',
      account_id: ira.id,
    });
    const sell = await trade(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 5,
      price: 300,
      fees: 1,
      executed_at: '2024-03-01',
      account_id: ira.id,
    });
    expect(sell.data).toMatchObject({ account_id: ira.id, realized_pnl: 499 });

    const positions = async (accountId?: number) => {
      const body = dataOf(await read.positions(user, { include_cash: true, account_id: accountId }));
      return [body.positions[0].quantity, body.positions[0].cost_basis, body.cash_balance];
    };
    expect(await positions(ira.id)).toEqual([5, 1000, 2499]);
    expect(await positions(taxable.id)).toEqual([10, 1002, -1002]);
    expect(await positions()).toEqual([15, 2002, 1497]);

    const realized = async (accountId?: number) =>
      dataOf(await read.summary(user, { account_id: accountId })).realized_pnl;
    expect([await realized(ira.id), await realized(taxable.id), await realized()]).toEqual([499, 0, 499]);
    const lots = dataOf(await read.lots(user)).lots;
    expect(
      lots.map((lot: { lot_id: number; account_id: number; quantity: number }) => [
        lot.lot_id,
        lot.account_id,
        lot.quantity,
      ]),
    ).toEqual([
      [lotA, taxable.id, 10],
      [lotB, ira.id, 5],
    ]);
    const listed = dataOf(await read.transactions(user, { account_id: ira.id }));
    expect(listed.total).toBe(3);

    // The IRA holds 5: the taxable account's 10 do not cover a sixth.
    const oversell = await trade(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 6,
      price: 300,
      executed_at: '2024-03-02',
      account_id: ira.id,
    });
    expect(oversell.response.status).toBe(400);
    expect(oversell.error).toEqual({ detail: 'Insufficient quantity of AAPL to sell' });

    const scopedReads = {
      'history?period=ALL': () => read.history(user, { period: 'ALL', account_id: ira.id }),
      'income?period=ALL': () => read.income(user, { period: 'ALL', account_id: ira.id }),
      'realized?year=2024': () => read.realized(user, { year: 2024, account_id: ira.id }),
      'risk-metrics': () => read.riskMetrics(user, { account_id: ira.id }),
      '': () => read.overview(user, { account_id: ira.id }),
    };
    for (const [path, scoped] of Object.entries(scopedReads)) {
      expect([path, (await scoped()).response.status]).toEqual([path, 200]);
    }
    const realizedIra = dataOf(await read.realized(user, { year: 2024, account_id: ira.id }));
    expect(realizedIra.totals).toMatchObject({ gain: 499 });
    expect(dataOf(await read.realized(user, { year: 2024, account_id: taxable.id })).realized).toEqual([]);
  });

  it('refuses to delete an account with transactions unless they move, then merges them', async () => {
    const user = await registerUser(sut);
    const [taxable] = await accounts(user);
    const ira = await open(user, { name: 'IRA', kind: 'ira' });
    await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 100,
      fees: 2,
      executed_at: '2024-01-02',
    });
    await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 200,
      executed_at: '2024-02-01',
      account_id: ira.id,
    });
    const sellId = await record(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 5,
      price: 300,
      fees: 1,
      executed_at: '2024-03-01',
      account_id: ira.id,
    });

    const refused = await closeAccount(user, ira.id);
    expect([refused.response.status, refused.error]).toEqual([
      409,
      { detail: 'The account holds 2 transactions: name the account to move them to in move_to' },
    ]);
    expect((await closeAccount(user, taxable.id)).response.status).toBe(409);
    expect((await closeAccount(user, ira.id, ira.id)).response.status).toBe(409);
    expect((await closeAccount(user, ira.id, 999999)).response.status).toBe(404);

    expect((await closeAccount(user, ira.id, taxable.id)).response.status).toBe(204);
    expect((await accounts(user)).map((account) => [account.id, account.transaction_count])).toEqual([
      [taxable.id, 3],
    ]);
    // One account now: 20 shares costing 3,002 before the sell, which removes 5 × 150.1 = 750.5.
    const sell = dataOf(await read.transactions(user, { limit: 1 })).transactions[0];
    expect(sell).toMatchObject({ id: sellId, account_id: taxable.id, realized_pnl: 748.5 });
    const empty = await open(user, { name: 'Empty', kind: 'hsa' });
    expect((await closeAccount(user, empty.id)).response.status).toBe(204);
    expect((await read.account(user, empty.id)).response.status).toBe(404);
  });

  it("answers 404 for a deleted account's holdings even right after they were read", async () => {
    const user = await registerUser(sut);
    const empty = await open(user, { name: 'Empty', kind: 'hsa' });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const held = await read.positions(user, { account_id: empty.id });
      expect([held.response.status, held.data]).toEqual([200, { positions: [] }]);
    }

    expect((await closeAccount(user, empty.id)).response.status).toBe(204);

    const gone = await read.positions(user, { account_id: empty.id });
    expect([gone.response.status, gone.error]).toEqual([404, { detail: 'Account not found' }]);
  });

  it('imports a CSV into the account named', async () => {
    const user = await registerUser(sut);
    const ira = await open(user, { name: 'IRA', kind: 'ira' });
    const imported = await typedApi(sut, user).POST('/api/v1/portfolio/transactions/import', {
      params: { query: { account_id: ira.id } },
      body: 'date,symbol,side,quantity,price,fees\n2025-01-06,AAPL,buy,2,100,0\n',
      ...asCsv,
    });
    expect(imported.response.status).toBe(201);
    expect(dataOf(imported).transactions[0].account_id).toBe(ira.id);
  });
});
