// What the portfolio, preferences and profile routes keep in memory between requests (the ledger
// per ledger version, the analytics derived from it, the preferences record, the user's profile)
// must never outlive a write: the next read, on this instance or another one, shows the change.
import { randomUUID } from 'node:crypto';
import { createSuperuser, registerUser, TestUser } from '../factories/users.factory';
import { httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
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

  const get = async (user: TestUser, path: string) => {
    const response = await sut.inject({ url: path, headers: user.headers });
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const record = async (user: TestUser, symbol: string, side: 'buy' | 'sell', quantity: number) => {
    const response = await sut.inject({
      method: 'POST',
      url: `${BASE}/transactions`,
      headers: user.headers,
      payload: { symbol, side, quantity, price: 100, executed_at: YESTERDAY },
    });
    expect(response.statusCode).toBe(201);
    return response.json().id as number;
  };
  const quantities = async (user: TestUser) =>
    ((await get(user, `${BASE}/positions`)).positions as Position[]).map((p) => [p.symbol, p.quantity]);

  it('shows every ledger write on the next read of positions, transactions, summary and risk', async () => {
    const user = await registerUser(sut);
    await record(user, 'AAPL', 'buy', 10);
    expect(await quantities(user)).toEqual([['AAPL', 10]]);
    const summaryBefore = await get(user, `${BASE}/summary`);
    const riskBefore = await get(user, `${BASE}/risk-metrics`);
    expect((await get(user, `${BASE}/transactions`)).total).toBe(1);

    const sell = await record(user, 'AAPL', 'sell', 4);
    await record(user, 'MSFT', 'buy', 3);
    expect(await quantities(user)).toEqual(
      expect.arrayContaining([
        ['AAPL', 6],
        ['MSFT', 3],
      ]),
    );
    const transactions = await get(user, `${BASE}/transactions`);
    expect(transactions.total).toBe(3);
    expect(transactions.transactions.map((t: { id: number }) => t.id)).toContain(sell);
    const summaryAfter = await get(user, `${BASE}/summary`);
    expect(summaryAfter.positions_count).toBe(2);
    expect(summaryAfter.total_cost).not.toBe(summaryBefore.total_cost);
    expect((await get(user, `${BASE}/risk-metrics`)).total_value).not.toBe(riskBefore.total_value);

    const deleted = await sut.inject({
      method: 'DELETE',
      url: `${BASE}/transactions/${sell}`,
      headers: user.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(await quantities(user)).toEqual(
      expect.arrayContaining([
        ['AAPL', 10],
        ['MSFT', 3],
      ]),
    );
    expect((await get(user, `${BASE}/transactions`)).total).toBe(2);
  });

  it('keeps one user’s cached ledger away from another user', async () => {
    const [ada, bob] = await Promise.all([registerUser(sut), registerUser(sut)]);
    await record(ada, 'AAPL', 'buy', 5);
    expect(await quantities(ada)).toEqual([['AAPL', 5]]);
    expect(await quantities(bob)).toEqual([]);
    expect((await get(bob, `${BASE}/transactions`)).total).toBe(0);
  });

  it('shows a preferences change on the next read and in the risk comparison', async () => {
    const user = await registerUser(sut);
    await record(user, 'AAPL', 'buy', 5);
    const created = await sut.inject({
      method: 'POST',
      url: '/api/v1/preferences/',
      headers: user.headers,
      payload: { experience_level: 'beginner', risk_tolerance: 'conservative' },
    });
    expect(created.statusCode).toBe(201);
    expect((await get(user, '/api/v1/preferences/')).risk_tolerance).toBe('conservative');
    expect((await get(user, `${BASE}/risk-metrics`)).risk_tolerance).toBe('conservative');

    const updated = await sut.inject({
      method: 'PUT',
      url: '/api/v1/preferences/',
      headers: user.headers,
      payload: { risk_tolerance: 'aggressive' },
    });
    expect(updated.statusCode).toBe(200);
    expect((await get(user, '/api/v1/preferences/')).risk_tolerance).toBe('aggressive');
    expect((await get(user, `${BASE}/risk-metrics`)).risk_tolerance).toBe('aggressive');

    const removed = await sut.inject({
      method: 'DELETE',
      url: '/api/v1/preferences/',
      headers: user.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect((await sut.inject({ url: '/api/v1/preferences/', headers: user.headers })).statusCode).toBe(404);
    expect((await get(user, `${BASE}/risk-metrics`)).risk_tolerance).toBeNull();
  });

  it('shows an administrator’s change of a profile on the user’s next GET /auth/me', async () => {
    const [admin, user] = [await createSuperuser(sut), await registerUser(sut)];
    const before = await get(user, '/api/v1/auth/me');
    const updated = await sut.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
      payload: { full_name: 'Renamed By Admin' },
    });
    expect(updated.statusCode).toBe(200);
    const after = await get(user, '/api/v1/auth/me');
    expect(after).toEqual({
      ...before,
      full_name: 'Renamed By Admin',
      updated_at: updated.json().updated_at,
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
