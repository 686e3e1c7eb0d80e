// What the portfolio, preferences and profile routes keep in memory between requests (the ledger
// per ledger version, the analytics derived from it, the preferences record, the user's profile)
// must never outlive a write: the next read, on this instance or another one, shows the change.
import { randomUUID } from 'node:crypto';
import { createSuperuser, registerUser, TestUser } from '../factories/users.factory';
import { httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { dataOf, typedApi } from '../support/typed-api';
import { createTestDatabase, TestDatabase } from '../setup/test-database';

const BASE = '/api/v1/portfolio';
const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString();

interface Position {
  symbol: string;
  quantity: number;
}

describe('cached reads after writes', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  const record = async (user: TestUser, symbol: string, side: 'buy' | 'sell', quantity: number) => {
    const recorded = await typedApi(sut, user).POST('/api/v1/portfolio/transactions', {
      body: { symbol, side, quantity, price: 100, executed_at: YESTERDAY },
    });
    expect(recorded.response.status).toBe(201);
    return dataOf(recorded).id;
  };
  const positions = async (user: TestUser) =>
    dataOf(await typedApi(sut, user).GET('/api/v1/portfolio/positions'));
  const quantities = async (user: TestUser) =>
    (await positions(user)).positions.map((p) => [p.symbol, p.quantity]);
  const transactions = async (user: TestUser) =>
    dataOf(await typedApi(sut, user).GET('/api/v1/portfolio/transactions'));
  const summary = async (user: TestUser) =>
    dataOf(await typedApi(sut, user).GET('/api/v1/portfolio/summary'));
  const risk = async (user: TestUser) =>
    dataOf(await typedApi(sut, user).GET('/api/v1/portfolio/risk-metrics'));
  const preferences = (user: TestUser) => typedApi(sut, user).GET('/api/v1/preferences');
  const me = async (user: TestUser) => dataOf(await typedApi(sut, user).GET('/api/v1/auth/me'));

  it('shows every ledger write on the next read of positions, transactions, summary and risk', async () => {
    const user = await registerUser(sut);
    await record(user, 'AAPL', 'buy', 10);
    expect(await quantities(user)).toEqual([['AAPL', 10]]);
    const summaryBefore = await summary(user);
    const riskBefore = await risk(user);
    expect((await transactions(user)).total).toBe(1);

    const sell = await record(user, 'AAPL', 'sell', 4);
    await record(user, 'MSFT', 'buy', 3);
    expect(await quantities(user)).toEqual(
      expect.arrayContaining([
        ['AAPL', 6],
        ['MSFT', 3],
      ]),
    );
    const listed = await transactions(user);
    expect(listed.total).toBe(3);
    expect(listed.transactions.map((t) => t.id)).toContain(sell);
    const summaryAfter = await summary(user);
    expect(summaryAfter.positions_count).toBe(2);
    expect(summaryAfter.total_cost).not.toBe(summaryBefore.total_cost);
    expect((await risk(user)).total_value).not.toBe(riskBefore.total_value);

    const deleted = await typedApi(sut, user).DELETE('/api/v1/portfolio/transactions/{id}', {
      params: { path: { id: sell } },
    });
    expect(deleted.response.status).toBe(204);
    expect(await quantities(user)).toEqual(
      expect.arrayContaining([
        ['AAPL', 10],
        ['MSFT', 3],
      ]),
    );
    expect((await transactions(user)).total).toBe(2);
  });

  it('shows a ledger write on the next read of lots and realized gains, whose bytes were kept', async () => {
    const user = await registerUser(sut);
    const api = typedApi(sut, user);
    const trade = async (side: 'buy' | 'sell', quantity: number, executedAt: string) => {
      const recorded = await api.POST('/api/v1/portfolio/transactions', {
        body: { symbol: 'AAPL', side, quantity, price: 100, executed_at: executedAt },
      });
      expect(recorded.response.status).toBe(201);
      return dataOf(recorded).id;
    };
    const lots = async () =>
      dataOf(await api.GET('/api/v1/portfolio/lots')).lots.map((lot) => [lot.lot_id, lot.quantity]);
    const realized = async () =>
      dataOf(await api.GET('/api/v1/portfolio/realized', { params: { query: { year: 2025 } } })).realized.map(
        (portion) => [portion.sell_id, portion.quantity],
      );
    const firstBuy = await trade('buy', 10, '2025-01-06T15:00:00Z');
    const firstSell = await trade('sell', 4, '2025-02-03T15:00:00Z');
    // The second read of each is answered from what the first kept.
    for (let read = 0; read < 2; read += 1) {
      expect(await lots()).toEqual([[firstBuy, 6]]);
      expect(await realized()).toEqual([[firstSell, 4]]);
    }

    const secondSell = await trade('sell', 5, '2025-03-03T15:00:00Z');

    expect(await lots()).toEqual([[firstBuy, 1]]);
    expect(await realized()).toEqual([
      [firstSell, 4],
      [secondSell, 5],
    ]);
  });

  it('shows a back-dated trade on the next read of the value history, whose points were kept', async () => {
    const user = await registerUser(sut);
    const api = typedApi(sut, user);
    const buy = async (quantity: number, executedAt: string) => {
      const recorded = await api.POST('/api/v1/portfolio/transactions', {
        body: { symbol: 'AAPL', side: 'buy', quantity, price: 100, executed_at: executedAt },
      });
      expect(recorded.response.status).toBe(201);
    };
    const chart = async () => {
      const { points } = dataOf(
        await api.GET('/api/v1/portfolio/history', { params: { query: { period: 'ALL' } } }),
      );
      return { first: points[0].date, netInvested: points.at(-1)!.net_invested };
    };
    await buy(10, '2025-02-03T15:00:00Z');
    // The second read is answered from the points the first kept.
    const before = await chart();
    expect(await chart()).toEqual(before);
    expect(before).toEqual({ first: '2025-02-03', netInvested: 1000 });

    await buy(5, '2025-01-06T15:00:00Z');

    expect(await chart()).toEqual({ first: '2025-01-06', netInvested: 1500 });
  });

  it('keeps one user’s cached ledger away from another user', async () => {
    const [ada, bob] = await Promise.all([registerUser(sut), registerUser(sut)]);
    await record(ada, 'AAPL', 'buy', 5);
    expect(await quantities(ada)).toEqual([['AAPL', 5]]);
    expect(await quantities(bob)).toEqual([]);
    expect((await transactions(bob)).total).toBe(0);
  });

  it('shows a preferences change on the next read and in the risk comparison', async () => {
    const user = await registerUser(sut);
    const api = typedApi(sut, user);
    await record(user, 'AAPL', 'buy', 5);
    const created = await api.POST('/api/v1/preferences', {
      body: { experience_level: 'beginner', risk_tolerance: 'conservative' },
    });
    expect(created.response.status).toBe(201);
    expect(dataOf(await preferences(user)).risk_tolerance).toBe('conservative');
    expect((await risk(user)).risk_tolerance).toBe('conservative');

    const updated = await api.PUT('/api/v1/preferences', { body: { risk_tolerance: 'aggressive' } });
    expect(updated.response.status).toBe(200);
    expect(dataOf(await preferences(user)).risk_tolerance).toBe('aggressive');
    expect((await risk(user)).risk_tolerance).toBe('aggressive');

    const removed = await api.DELETE('/api/v1/preferences');
    expect(removed.response.status).toBe(204);
    expect((await preferences(user)).response.status).toBe(404);
    expect((await risk(user)).risk_tolerance).toBeNull();
  });

  it('shows an administrator’s change of a profile on the user’s next GET /auth/me', async () => {
    const [admin, user] = [await createSuperuser(sut), await registerUser(sut)];
    const before = await me(user);
    const updated = await typedApi(sut, admin).PUT('/api/v1/admin/users/{user_id}', {
      params: { path: { user_id: user.id } },
      body: { full_name: 'Renamed By Admin' },
    });
    expect(updated.response.status).toBe(200);
    const after = await me(user);
    expect(after).toEqual({
      ...before,
      full_name: 'Renamed By Admin',
      updated_at: dataOf(updated).updated_at,
    });
    expect(after.updated_at).not.toBeNull();
  });

  // Two instances share one PostgreSQL and one Redis, as behind a load balancer; the second is a
  // process of its own (Nest apps in one process share passport's strategy registry).
  const describeTwoInstances = process.env.TEST_DATABASE_KIND === 'postgres' ? describe : describe.skip;
  describeTwoInstances('two instances on PostgreSQL + Redis', () => {
    let database: TestDatabase;
    let first: TestApp;
    let second: ServiceProcess;
    let firstUrl: string;
    let secondUrl: string;

    beforeAll(async () => {
      database = await createTestDatabase();
      const namespace = `test-${randomUUID()}`;
      first = await createTestApp({ database, env: { CACHE_NAMESPACE: namespace } });
      firstUrl = await first.listen();
      second = await startServiceProcess({ ...database.env, CACHE_NAMESPACE: namespace });
      secondUrl = second.url;
    }, 90_000);
    afterAll(async () => {
      await second?.stop();
      await first.close();
      await database.drop();
    });

    it('a ledger write on one instance shows on the other, which had the ledger cached', async () => {
      const user = await registerUser(first);
      const buy = (url: string, quantity: number) =>
        httpCall(`${url}${BASE}/transactions`, {
          method: 'POST',
          headers: user.headers,
          body: { symbol: 'AAPL', side: 'buy', quantity, price: 100, executed_at: YESTERDAY },
        });
      const positions = async (url: string) =>
        (
          (await httpCall(`${url}${BASE}/positions`, { headers: user.headers })).body as {
            positions: Position[];
          }
        ).positions;
      expect((await buy(firstUrl, 2)).status).toBe(201);
      expect((await positions(secondUrl)).map((p) => p.quantity)).toEqual([2]);
      expect((await buy(firstUrl, 3)).status).toBe(201);
      expect((await positions(secondUrl)).map((p) => p.quantity)).toEqual([5]);
    });
  });
});
