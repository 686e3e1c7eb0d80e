import type { Schemas } from '../../client';
import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';
import { dataOf, issuesOf, typedApi } from '../support/typed-api';

interface Lot {
  lot_id: number;
  account_id: number;
  acquired_on: string;
  quantity: number;
  cost_per_share: number;
}

describe('Transfers: shares and cash between accounts, and from other brokers', () => {
  const clock = new FakeClock(new Date('2025-03-12T22:00:00Z'));
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const { read, record } = portfolioCalls(() => sut);
  const trade = (user: TestUser, body: Schemas['CreateTransactionDto']) =>
    typedApi(sut, user).POST('/api/v1/portfolio/transactions', { body });
  const move = (user: TestUser, body: Schemas['CreateTransferDto']) =>
    typedApi(sut, user).POST('/api/v1/portfolio/transfers', { body });
  const transfer = async (user: TestUser, body: Schemas['CreateTransferDto']) => {
    const response = await move(user, body);
    expect(response.response.status).toBe(201);
    return dataOf(response);
  };

  async function twoAccounts(method: 'average' | 'fifo') {
    const user = await registerUser(sut);
    const api = typedApi(sut, user);
    await api.PUT('/api/v1/portfolio/settings', { body: { cost_basis_method: method } });
    const taxable = dataOf(await read.accounts(user)).accounts[0].id as number;
    const ira = dataOf(
      await api.POST('/api/v1/portfolio/accounts', { body: { name: 'IRA', kind: 'ira' } }),
    ).id;
    await record(user, { side: 'deposit', amount: 5000, executed_at: '2024-01-02' });
    const lot1 = await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 100,
      executed_at: '2024-01-03',
    });
    const lot2 = await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 160,
      executed_at: '2024-06-03',
    });
    return { user, taxable, ira, lot1, lot2 };
  }

  const position = async (user: TestUser, account?: number) => {
    const body = dataOf(await read.positions(user, { include_cash: true, account_id: account }));
    const [aapl] = body.positions;
    return { quantity: aapl?.quantity ?? 0, costBasis: aapl?.cost_basis ?? 0, cash: body.cash_balance };
  };
  const lots = async (user: TestUser, account?: number): Promise<Lot[]> =>
    dataOf(await read.lots(user, { account_id: account })).lots;

  // Hand-computed, FIFO. Taxable: deposit 5,000; buy 10 AAPL @ 100 (lot 1, 2024-01-03) and 10 @ 160
  // (lot 2, 2024-06-03): cash 2,400.
  // 2024-07-01 15 AAPL taxable → IRA: the oldest lots leave: all of lot 1 (10 @ 100) and 5 of lot 2
  //   (@ 160). IRA: 10 @ 100 acquired 2024-01-03 and 5 @ 160 acquired 2024-06-03, cost 1,800;
  //   taxable: 5 of lot 2, cost 800. Nothing realized.
  // 2024-07-02 1,000 cash taxable → IRA: taxable 1,400, IRA 1,000.
  // 2025-02-03 IRA sells 12 @ 200, fees 2 (net 2,398, 199.8333 a share): 10 from the first leg,
  //   held since 2024-01-03, long term: 1,998.33 − 1,000 = 998.33; 2 from the second, short term:
  //   399.67 − 320 = 79.67; realized 1,078. IRA: 3 @ 160 = 480 left, cash 3,398.
  // 2025-02-04 taxable sells its 5 @ 150: 750 − 800 = −50. Taxable cash 2,150, nothing left.
  // Combined: 3 AAPL costing 480, realized 1,028, cash 5,548 (= 5,000 − 2,600 + 2,398 + 750).
  it('moves lots with their acquisition dates and cost, and keeps every figure per account (FIFO)', async () => {
    const { user, taxable, ira, lot1 } = await twoAccounts('fifo');
    const shares = await transfer(user, {
      from_account_id: taxable,
      to_account_id: ira,
      symbol: 'AAPL',
      quantity: 15,
      executed_at: '2024-07-01',
    });
    expect(shares.sent).toMatchObject({
      side: 'transfer_out',
      account_id: taxable,
      symbol: 'AAPL',
      quantity: 15,
    });
    expect(shares.received).toEqual([
      expect.objectContaining({
        side: 'transfer_in',
        account_id: ira,
        quantity: 10,
        amount: 1000,
        acquired_on: '2024-01-03',
        transfer_of: shares.sent.id,
      }),
      expect.objectContaining({
        side: 'transfer_in',
        account_id: ira,
        quantity: 5,
        amount: 800,
        acquired_on: '2024-06-03',
        transfer_of: shares.sent.id,
      }),
    ]);
    await transfer(user, {
      from_account_id: taxable,
      to_account_id: ira,
      amount: 1000,
      executed_at: '2024-07-02',
    });

    expect(await position(user, ira)).toEqual({ quantity: 15, costBasis: 1800, cash: 1000 });
    expect(await position(user, taxable)).toEqual({ quantity: 5, costBasis: 800, cash: 1400 });
    expect(
      (await lots(user)).map((lot) => [lot.account_id, lot.acquired_on, lot.quantity, lot.cost_per_share]),
    ).toEqual([
      [taxable, '2024-06-03', 5, 160],
      [ira, '2024-01-03', 10, 100],
      [ira, '2024-06-03', 5, 160],
    ]);
    expect((await lots(user, taxable))[0].lot_id).not.toBe(lot1);

    const sale = await trade(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 12,
      price: 200,
      fees: 2,
      executed_at: '2025-02-03',
      account_id: ira,
    });
    expect(dataOf(sale).realized_pnl).toBe(1078);
    // The IRA holds 3 now; the taxable account's 5 do not make a fourth sellable there.
    const oversell = await trade(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 4,
      price: 200,
      executed_at: '2025-02-04',
      account_id: ira,
    });
    expect([oversell.response.status, oversell.error]).toEqual([
      400,
      { detail: 'Insufficient quantity of AAPL to sell' },
    ]);
    await record(user, { symbol: 'AAPL', side: 'sell', quantity: 5, price: 150, executed_at: '2025-02-04' });

    const realized = dataOf(await read.realized(user, { year: 2025, account_id: ira }));
    expect(
      realized.realized.map((p: { acquired_on: string; quantity: number; gain: number; term: string }) => [
        p.acquired_on,
        p.quantity,
        p.gain,
        p.term,
      ]),
    ).toEqual([
      ['2024-01-03', 10, 998.33, 'long'],
      ['2024-06-03', 2, 79.67, 'short'],
    ]);
    expect(realized.totals).toMatchObject({ gain: 1078, long_term_gain: 998.33, short_term_gain: 79.67 });
    expect(dataOf(await read.realized(user, { year: 2025, account_id: taxable })).totals.gain).toBe(-50);

    expect(await position(user, ira)).toEqual({ quantity: 3, costBasis: 480, cash: 3398 });
    expect(await position(user, taxable)).toEqual({ quantity: 0, costBasis: 0, cash: 2150 });
    expect(await position(user)).toEqual({ quantity: 3, costBasis: 480, cash: 5548 });
    expect(dataOf(await read.summary(user)).realized_pnl).toBe(1028);
  });

  // Average cost: the 20 taxable shares cost 2,600 (130 a share); 15 leave at 130: 1,950, in two
  // legs dated as their lots (10 × 130 and 5 × 130). The IRA's sale of 12 @ 200 − 2 realizes
  // 2,398 − 12 × 130 = 838; the taxable account keeps 5 costing 650.
  it('carries the average cost under the average method', async () => {
    const { user, taxable, ira } = await twoAccounts('average');
    const shares = await transfer(user, {
      from_account_id: taxable,
      to_account_id: ira,
      symbol: 'AAPL',
      quantity: 15,
      executed_at: '2024-07-01',
    });
    expect(shares.received.map((leg) => [leg.quantity, leg.amount, leg.acquired_on])).toEqual([
      [10, 1300, '2024-01-03'],
      [5, 650, '2024-06-03'],
    ]);
    expect(await position(user, taxable)).toMatchObject({ quantity: 5, costBasis: 650 });
    expect(await position(user, ira)).toMatchObject({ quantity: 15, costBasis: 1950 });
    const sale = await trade(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 12,
      price: 200,
      fees: 2,
      executed_at: '2025-02-03',
      account_id: ira,
    });
    expect(dataOf(sale).realized_pnl).toBe(838);
  });

  it('records both legs or neither, and deletes them together', async () => {
    const { user, taxable, ira } = await twoAccounts('average');
    const refused = await move(user, {
      from_account_id: taxable,
      to_account_id: ira,
      symbol: 'AAPL',
      quantity: 21,
      executed_at: '2024-07-01',
    });
    expect([refused.response.status, refused.error]).toEqual([
      400,
      { detail: 'Insufficient quantity of AAPL to sell' },
    ]);
    expect(dataOf(await read.transactions(user)).total).toBe(3);
    const same = await move(user, {
      from_account_id: ira,
      to_account_id: ira,
      amount: 5,
      executed_at: '2024-07-01',
    });
    expect(same.response.status).toBe(422);
    const other = await registerUser(sut);
    const foreign = await move(other, {
      from_account_id: taxable,
      to_account_id: ira,
      amount: 5,
      executed_at: '2024-07-01',
    });
    expect(foreign.response.status).toBe(404);

    const cash = await transfer(user, {
      from_account_id: taxable,
      to_account_id: ira,
      amount: 100,
      executed_at: '2024-07-01',
    });
    expect(dataOf(await read.transactions(user)).total).toBe(5);
    const edit = await typedApi(sut, user).PATCH('/api/v1/portfolio/transactions/{id}', {
      params: { path: { id: cash.sent.id } },
      body: { amount: 5 },
    });
    expect(edit.response.status).toBe(409);
    const deleted = await typedApi(sut, user).DELETE('/api/v1/portfolio/transactions/{id}', {
      params: { path: { id: cash.received[0].id } },
    });
    expect(deleted.response.status).toBe(204);
    expect(dataOf(await read.transactions(user)).total).toBe(3);
    expect((await position(user, ira)).cash).toBe(0);
  });

  it('takes shares from another broker with their original cost and date, and sends shares away', async () => {
    const user = await registerUser(sut);
    const incoming = await trade(user, {
      symbol: 'MSFT',
      side: 'transfer_in',
      quantity: 4,
      amount: 600,
      acquired_on: '2019-05-01',
      executed_at: '2025-01-06',
    });
    expect(incoming.response.status).toBe(201);
    expect(incoming.data).toMatchObject({
      side: 'transfer_in',
      quantity: 4,
      amount: 600,
      acquired_on: '2019-05-01',
      transfer_of: null,
    });
    expect((await lots(user))[0]).toMatchObject({
      acquired_on: '2019-05-01',
      quantity: 4,
      cost_per_share: 150,
      term: 'long',
    });
    expect(await position(user)).toEqual({ quantity: 4, costBasis: 600, cash: 0 });
    await record(user, { symbol: 'MSFT', side: 'transfer_out', quantity: 1, executed_at: '2025-01-07' });
    expect(await position(user)).toEqual({ quantity: 3, costBasis: 450, cash: 0 });
    expect(dataOf(await read.summary(user)).realized_pnl).toBe(0);

    const invalid = await trade(user, {
      symbol: 'MSFT',
      side: 'transfer_in',
      quantity: 1,
      acquired_on: '2025-02-01',
      executed_at: '2025-01-06',
    });
    expect(issuesOf(invalid).map((issue) => issue.loc)).toEqual([['body', 'amount']]);
    const late = await trade(user, {
      symbol: 'MSFT',
      side: 'transfer_in',
      quantity: 1,
      amount: 5,
      acquired_on: '2025-02-01',
      executed_at: '2025-01-06',
    });
    expect(issuesOf(late)[0].loc).toEqual(['body', 'acquired_on']);
  });
});
