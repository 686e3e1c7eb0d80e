import type { Schemas } from '../../client';
import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';
import { dataOf, issuesOf, typedApi } from '../support/typed-api';

describe('Editing transactions: PATCH /portfolio/transactions/{id}', () => {
  const clock = new FakeClock(new Date('2025-03-12T22:00:00Z'));
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const { read, record } = portfolioCalls(() => sut);
  const patch = (user: TestUser, id: number, body: Schemas['UpdateTransactionDto'], key?: string) =>
    typedApi(sut, user).PATCH('/api/v1/portfolio/transactions/{id}', {
      params: { path: { id }, header: key ? { 'Idempotency-Key': key } : undefined },
      body,
    });
  const transaction = async (user: TestUser, id: number) =>
    dataOf(await read.transactions(user, { limit: 1000 })).transactions.find(
      (t: { id: number }) => t.id === id,
    )!;

  // 10 AAPL at 100, 10 at 200, then 5 sold at 300 (average 150: realized 750).
  async function threeTrades(user: TestUser) {
    const first = await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 100,
      executed_at: '2025-01-06',
    });
    const second = await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 200,
      executed_at: '2025-01-07',
    });
    const sell = await record(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 5,
      price: 300,
      executed_at: '2025-02-03',
    });
    return { first, second, sell };
  }

  it('re-derives the realized P&L of later sells, stamps updated_at and keeps the replaced values', async () => {
    const user = await registerUser(sut);
    const { second, sell } = await threeTrades(user);
    expect((await transaction(user, sell)).realized_pnl).toBe(750);

    clock.advance(60_000);
    const edited = await patch(user, second, { price: 100, note: 'fixed price' });
    expect(edited.response.status).toBe(200);
    expect(edited.data).toMatchObject({
      id: second,
      side: 'buy',
      symbol: 'AAPL',
      quantity: 10,
      price: 100,
      fees: 0,
      executed_at: '2025-01-07T00:00:00.000Z',
      note: 'fixed price',
      updated_at: clock.now().toISOString(),
    });
    // Average now 100: 5 × 300 − 500.
    expect((await transaction(user, sell)).realized_pnl).toBe(1000);
    expect(dataOf(await read.positions(user)).positions[0]).toMatchObject({
      quantity: 15,
      cost_basis: 1500,
    });

    const history = dataOf(await read.revisions(user, second));
    expect(history.revisions).toEqual([
      {
        previous: expect.objectContaining({
          side: 'buy',
          price: 200,
          quantity: 10,
          note: null,
          updated_at: null,
        }),
        replaced_at: clock.now().toISOString(),
      },
    ]);
    expect(dataOf(await read.revisions(user, sell))).toEqual({ revisions: [] });
  });

  it('refuses an edit that a new entry could not make, and changes nothing', async () => {
    const user = await registerUser(sut);
    const { first, sell } = await threeTrades(user);
    // 20 held: selling 25 is an oversell; so is shrinking the first buy below what the sell needs.
    expect((await patch(user, sell, { quantity: 25 })).error).toEqual({
      detail: 'Insufficient quantity of AAPL to sell',
    });
    const moved = await patch(user, sell, { executed_at: '2025-01-03' });
    expect([moved.response.status, moved.error]).toEqual([
      400,
      { detail: 'Insufficient quantity of AAPL to sell' },
    ]);
    expect(issuesOf(await patch(user, first, { amount: 5 }))).toEqual([
      { loc: ['body', 'amount'], msg: 'Value error, amount is not accepted for a buy', type: 'value_error' },
    ]);
    const future = await patch(user, first, { executed_at: '2025-03-13' });
    expect(future.response.status).toBe(422);
    expect(issuesOf(await patch(user, sell, { side: 'dividend' }))).toEqual([
      { loc: ['body', 'amount'], msg: 'Field required', type: 'missing' },
    ]);
    expect((await transaction(user, sell)).realized_pnl).toBe(750);
    expect(dataOf(await read.revisions(user, sell))).toEqual({ revisions: [] });

    const other = await registerUser(sut);
    expect((await patch(other, sell, { price: 1 })).error).toEqual({ detail: 'Transaction not found' });
    expect((await read.revisions(other, sell)).response.status).toBe(404);
  });

  it('changes the kind of an entry, taking the new kind’s fields', async () => {
    const user = await registerUser(sut);
    const { sell } = await threeTrades(user);
    const dividend = await patch(user, sell, { side: 'dividend', amount: 12.5, withholding_tax: 1.5 });
    expect(dividend.response.status).toBe(200);
    expect(dividend.data).toMatchObject({
      side: 'dividend',
      symbol: 'AAPL',
      amount: 12.5,
      withholding_tax: 1.5,
    });
    expect(dividend.data).not.toHaveProperty('quantity');
    expect(dataOf(await read.positions(user)).positions[0]).toMatchObject({
      quantity: 20,
      cost_basis: 3000,
    });
  });

  it('holds an edit to strict cash', async () => {
    const user = await registerUser(sut);
    const strict = await typedApi(sut, user).PUT('/api/v1/portfolio/settings', {
      body: { strict_cash: true },
    });
    expect(strict.response.status).toBe(200);
    await record(user, { side: 'deposit', amount: 1000, executed_at: '2025-01-02' });
    const buy = await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 5,
      price: 100,
      executed_at: '2025-01-06',
    });
    const refused = await patch(user, buy, { price: 300 });
    expect([refused.response.status, refused.error]).toEqual([
      400,
      { detail: 'Insufficient cash for this buy' },
    ]);
    expect((await patch(user, buy, { price: 200 })).response.status).toBe(200);
  });

  it('refuses (409) an edit that leaves a stored sell’s named lot short', async () => {
    const user = await registerUser(sut);
    const { first } = await threeTrades(user);
    await record(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 5,
      price: 300,
      executed_at: '2025-02-04',
      lots: [{ lot_id: first, quantity: 5 }],
    });
    // The first sell (naming none) closes 5 of lot 1 by FIFO; the second names the 5 left. With a
    // first buy of 9, only 4 would be left for it.
    const refused = await patch(user, first, { quantity: 9 });
    expect(refused.response.status).toBe(409);
    expect((await patch(user, first, { quantity: 12 })).response.status).toBe(200);
  });

  it('is idempotent under an Idempotency-Key: one edit, one revision, and the key is bound to its transaction', async () => {
    const user = await registerUser(sut);
    const { first, second } = await threeTrades(user);
    const once = await patch(user, first, { price: 90 }, 'edit-first-once');
    clock.advance(1000);
    const again = await patch(user, first, { price: 90 }, 'edit-first-once');
    expect(dataOf(again)).toEqual(dataOf(once));
    expect(dataOf(await read.revisions(user, first)).revisions).toHaveLength(1);
    const elsewhere = await patch(user, second, { price: 90 }, 'edit-first-once');
    expect(elsewhere.response.status).toBe(422);
  });

  it('moves an entry to another account under the per-account rules', async () => {
    const user = await registerUser(sut);
    const { sell, second } = await threeTrades(user);
    const ira = dataOf(
      await typedApi(sut, user).POST('/api/v1/portfolio/accounts', { body: { name: 'IRA', kind: 'ira' } }),
    );
    // The IRA holds nothing: the sell cannot move there alone.
    const refused = await patch(user, sell, { account_id: ira.id });
    expect([refused.response.status, refused.error]).toEqual([
      400,
      { detail: 'Insufficient quantity of AAPL to sell' },
    ]);
    expect(dataOf(await patch(user, second, { account_id: ira.id }))).toMatchObject({ account_id: ira.id });
    expect(dataOf(await patch(user, sell, { account_id: ira.id }))).toMatchObject({
      account_id: ira.id,
      realized_pnl: 500,
    });
    expect(dataOf(await read.positions(user, { account_id: ira.id })).positions[0]).toMatchObject({
      quantity: 5,
      cost_basis: 1000,
    });
  });
});
