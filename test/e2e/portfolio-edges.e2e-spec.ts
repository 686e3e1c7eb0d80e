import type { Schemas } from '../../client';
import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';
import { asCsv, dataOf, QueryOf, typedApi } from '../support/typed-api';

// Issue 21, defects 5 and 11–15: portfolio edges an independent recomputation found.
describe('Portfolio edges: old trades, exchange dates, yields, position fees, tiny splits', () => {
  const clock = new FakeClock(new Date('2025-03-12T22:00:00Z'));
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const { read, record } = portfolioCalls(() => sut);
  const post = (user: TestUser, body: Schemas['CreateTransactionDto']) =>
    typedApi(sut, user).POST('/api/v1/portfolio/transactions', { body });
  const remove = (user: TestUser, id: number) =>
    typedApi(sut, user).DELETE('/api/v1/portfolio/transactions/{id}', { params: { path: { id } } });

  describe('a trade older than the price history (defect 5)', () => {
    const tooEarly = (loc: (string | number)[], message: string) => ({
      detail: [{ loc, msg: `Value error, ${message}`, type: 'value_error' }],
    });

    it('refuses an executed_at before 1970-01-01, in a body and in an import', async () => {
      const user = await registerUser(sut);
      for (const executed_at of ['1969-12-31', '1969-12-31T23:59:59Z', '1900-01-03']) {
        const response = await post(user, {
          symbol: 'AAPL',
          side: 'buy',
          quantity: 1,
          price: 1,
          executed_at,
        });
        expect(response.response.status).toBe(422);
        expect(response.error).toEqual(
          tooEarly(['body', 'executed_at'], 'executed_at must not be before 1970-01-01'),
        );
      }
      const imported = await typedApi(sut, user).POST('/api/v1/portfolio/transactions/import', {
        body: 'date,symbol,side,quantity,price\n1970-01-01,AAPL,buy,1,1\n1900-01-03,AAPL,buy,1,1\n',
        ...asCsv,
      });
      expect(imported.response.status).toBe(422);
      expect(imported.error).toEqual(tooEarly(['body', 1, 'date'], 'the date must not be before 1970-01-01'));
      await record(user, { symbol: 'AAPL', side: 'buy', quantity: 1, price: 1, executed_at: '1970-01-01' });
    });

    it('answers every portfolio route and the assistant for a ledger that starts in 2000', async () => {
      const user = await registerUser(sut);
      await record(user, { symbol: 'AAPL', side: 'buy', quantity: 10, price: 25, executed_at: '2000-01-03' });

      const history = await read.history(user, { period: 'ALL' });
      expect(history.response.status).toBe(200);
      const points = dataOf(history).points as {
        date: string;
        net_invested: number;
        cumulative_return: number;
      }[];
      expect(points[0]).toMatchObject({ date: '2000-01-03', net_invested: 250 });
      const summary = await read.summary(user);
      expect(summary.response.status).toBe(200);
      const performance = dataOf(summary).performance as Record<string, number | null>;
      expect(performance.ALL).toBeCloseTo(points.at(-1)!.cumulative_return, 2);
      for (const period of ['1M', '3M', 'YTD', '1Y']) expect(typeof performance[period]).toBe('number');
      const overview = await read.overview(user);
      expect(overview.response.status).toBe(200);
      expect((await read.history(user, { period: '5Y' })).response.status).toBe(200);

      const chat = await typedApi(sut, user).POST('/api/v1/assistant/chat', {
        body: { message: 'How has my portfolio performed since my first trade?' },
      });
      expect(chat.response.status).toBe(200);
      const answer = dataOf(chat).message.content;
      expect(answer).toMatch(/Time-weighted returns: 1M [-+]?[\d.]+ %, 3M .*, ALL [-+]?[\d.]+ %\./);
    });
  });

  describe('exchange dates (defects 11 and 13)', () => {
    it('dates a date-time of exactly 00:00:00Z on its New York date, and a date alone on that date', async () => {
      const user = await registerUser(sut);
      // 2025-01-07T00:00:00Z is 19:00 on 6 January in New York
      const midnight = await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 1,
        price: 100,
        executed_at: '2025-01-07T00:00:00Z',
      });
      const dateOnly = await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 2,
        price: 100,
        executed_at: '2025-01-07',
      });
      const lots = dataOf(await read.lots(user)).lots as { lot_id: number; acquired_on: string }[];
      expect(lots.map(({ lot_id, acquired_on }) => ({ lot_id, acquired_on }))).toEqual([
        { lot_id: midnight, acquired_on: '2025-01-06' },
        { lot_id: dateOnly, acquired_on: '2025-01-07' },
      ]);
      const listed = dataOf(await read.transactions(user, { from: '2025-01-06', to: '2025-01-06' }));
      expect(listed.transactions.map((transaction: { id: number }) => transaction.id)).toEqual([midnight]);
      // the instant is answered as it was given
      expect(listed.transactions[0].executed_at).toBe('2025-01-07T00:00:00.000Z');
    });

    it('filters the listing by New York date, as the realized gains and the income do', async () => {
      const user = await registerUser(sut);
      await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 10,
        price: 100,
        executed_at: '2024-06-03',
      });
      // 01:00 UTC on 1 February is 20:00 on 31 January in New York: January income
      const dividend = await record(user, {
        symbol: 'AAPL',
        side: 'dividend',
        amount: 5,
        executed_at: '2025-02-01T01:00:00Z',
      });
      // 04:00 UTC on 1 January 2025 is 23:00 on 31 December 2024 in New York: a 2024 sale
      const sell = await record(user, {
        symbol: 'AAPL',
        side: 'sell',
        quantity: 1,
        price: 120,
        executed_at: '2025-01-01T04:00:00Z',
      });
      const ids = async (query: QueryOf<'/api/v1/portfolio/transactions'>) =>
        dataOf(await read.transactions(user, query)).transactions.map(({ id }) => id);

      expect(await ids({ from: '2025-01-31', to: '2025-01-31' })).toEqual([dividend]);
      expect(await ids({ from: '2025-02-01', to: '2025-02-01' })).toEqual([]);
      expect(await ids({ from: '2024-01-01', to: '2024-12-31', symbol: 'AAPL' })).toEqual([
        sell,
        expect.any(Number),
      ]);
      expect(await ids({ from: '2025-01-01' })).toEqual([dividend]);
      const realized = dataOf(await read.realized(user, { year: 2024 }));
      expect(realized.realized.map((entry: { sell_id: number }) => entry.sell_id)).toEqual([sell]);
      // a date-time bound still compares instants
      expect(await ids({ from: '2025-02-01T00:00:00Z' })).toEqual([dividend]);
    });
  });

  describe('yield_on_cost (defect 12)', () => {
    it("divides by the cost basis of today's positions by the user's method, as the positions show it", async () => {
      const user = await registerUser(sut);
      await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 10,
        price: 100,
        executed_at: '2024-01-05',
      });
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
        executed_at: '2025-02-03',
      });
      await record(user, { symbol: 'AAPL', side: 'dividend', amount: 6, executed_at: '2025-02-14' });
      const settings = await typedApi(sut, user).PUT('/api/v1/portfolio/settings', {
        body: { cost_basis_method: 'fifo' },
      });
      expect(settings.response.status).toBe(200);

      // FIFO keeps 3 shares of the second lot: 3 × 201 = 603 (average cost would say 401)
      const [position] = dataOf(await read.positions(user)).positions;
      expect(position.cost_basis).toBe(603);
      const income = dataOf(await read.income(user));
      expect(income.trailing_12_months.yield_on_cost).toBe(Number(((6 / 603) * 100).toFixed(4)));

      const schemas = (await sut.inject({ url: '/openapi.json' })).json().components.schemas;
      expect(schemas.TrailingYieldResponse.properties.yield_on_cost.description).toBe(
        'dividends_gross / the cost basis of today’s positions by the user’s cost-basis method (as ' +
          '`GET /portfolio/positions` shows it), percent; null without positions',
      );
    });
  });

  describe('a fee charged on a position (defect 14)', () => {
    it('is refused on a symbol never held before it, like a dividend, and taken once it was held', async () => {
      const user = await registerUser(sut);
      const unheld = await post(user, { side: 'fee', symbol: 'MSFT', amount: 5, executed_at: '2025-01-06' });
      expect(unheld.response.status).toBe(400);
      expect(unheld.error).toEqual({ detail: 'No position in MSFT was held before this fee' });

      const buy = await record(user, {
        symbol: 'MSFT',
        side: 'buy',
        quantity: 2,
        price: 40,
        executed_at: '2025-01-07',
      });
      const before = await post(user, { side: 'fee', symbol: 'MSFT', amount: 5, executed_at: '2025-01-06' });
      expect(before.response.status).toBe(400);
      await record(user, { side: 'fee', symbol: 'MSFT', amount: 5, executed_at: '2025-01-08' });
      const deletion = await remove(user, buy);
      expect(deletion.response.status).toBe(400);
      expect(deletion.error).toEqual({
        detail: 'Cannot delete this transaction: a later fee of MSFT would have no position',
      });
      expect(dataOf(await read.transactions(user)).total).toBe(2);
    });
  });

  describe('a split below the smallest quantity (defect 15)', () => {
    it('refuses a split that would leave less than 0.00000001 shares, and a deletion that would', async () => {
      const user = await registerUser(sut);
      await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 3,
        price: 40,
        fees: 1,
        executed_at: '2025-01-06',
      });
      await record(user, { symbol: 'AAPL', side: 'split', ratio: '1:1000000', executed_at: '2025-01-07' });
      const second = await post(user, {
        symbol: 'AAPL',
        side: 'split',
        ratio: '1:1000000',
        executed_at: '2025-01-08',
      });
      expect(second.response.status).toBe(400);
      expect(second.error).toEqual({
        detail:
          'This split would leave less than 0.00000001 shares of AAPL, the smallest quantity the ledger holds',
      });
      const [position] = dataOf(await read.positions(user)).positions;
      expect(position).toMatchObject({ symbol: 'AAPL', quantity: 0.000003, cost_basis: 121 });
      // the position can still be sold whole
      await record(user, {
        symbol: 'AAPL',
        side: 'sell',
        quantity: 0.000003,
        price: 1e6,
        executed_at: '2025-01-09',
      });
      expect(dataOf(await read.positions(user)).positions).toEqual([]);
    });

    it('refuses deleting a buy when a later split would then leave less than the smallest quantity', async () => {
      const user = await registerUser(sut);
      await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 0.005,
        price: 40,
        executed_at: '2025-01-06',
      });
      const big = await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 1,
        price: 40,
        executed_at: '2025-01-06',
      });
      await record(user, { symbol: 'AAPL', side: 'split', ratio: '1:1000000', executed_at: '2025-01-07' });
      const deletion = await remove(user, big);
      expect(deletion.response.status).toBe(400);
      expect(deletion.error).toEqual({
        detail:
          'Cannot delete this transaction: a later split of AAPL would leave less than 0.00000001 shares',
      });
    });

    it('describes strict_cash as enforced', async () => {
      const schemas = (await sut.inject({ url: '/openapi.json' })).json().components.schemas;
      expect(schemas.PortfolioSettingsResponse.properties.strict_cash.description).not.toContain(
        'not yet enforced',
      );
    });
  });
});
