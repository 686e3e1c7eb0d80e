import { registerUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';

const FULL = {
  detail: 'The ledger would exceed 3 transactions, the most one user may hold (see docs/input-limits.md)',
};
const buy = { symbol: 'AAPL', side: 'buy', quantity: 1, price: 100, executed_at: '2025-01-06' };

describe('ledger size cap (PORTFOLIO_MAX_TRANSACTIONS)', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ env: { PORTFOLIO_MAX_TRANSACTIONS: '3' } });
  });
  afterAll(() => sut.close());

  it('refuses a write or an import that would take the ledger past the cap with 400, storing nothing', async () => {
    const user = await registerUser(sut);
    const post = () =>
      sut.inject({
        method: 'POST',
        url: '/api/v1/portfolio/transactions',
        headers: user.headers,
        payload: buy,
      });
    const importRows = (rows: number) =>
      sut.inject({
        method: 'POST',
        url: '/api/v1/portfolio/transactions/import',
        headers: { ...user.headers, 'content-type': 'text/csv' },
        payload: `date,symbol,side,quantity,price,fees\n${'2025-01-06,MSFT,buy,1,100,0\n'.repeat(rows)}`,
      });
    const total = async () =>
      (await sut.inject({ url: '/api/v1/portfolio/transactions', headers: user.headers })).json().total;

    expect((await post()).statusCode).toBe(201);
    expect((await post()).statusCode).toBe(201);
    const tooMany = await importRows(2);
    expect({ status: tooMany.statusCode, body: tooMany.json() }).toEqual({ status: 400, body: FULL });
    expect(await total()).toBe(2);
    expect((await importRows(1)).statusCode).toBe(201);
    const full = await post();
    expect({ status: full.statusCode, body: full.json() }).toEqual({ status: 400, body: FULL });
    expect(await total()).toBe(3);
    const other = await registerUser(sut);
    expect(
      (
        await sut.inject({
          method: 'POST',
          url: '/api/v1/portfolio/transactions',
          headers: other.headers,
          payload: buy,
        })
      ).statusCode,
    ).toBe(201);
  });

  it('holds an executed rebalance to the cap as well', async () => {
    const user = await registerUser(sut);
    for (const trade of [
      { ...buy, quantity: 20 },
      { ...buy, symbol: 'MSFT' },
    ]) {
      const recorded = await sut.inject({
        method: 'POST',
        url: '/api/v1/portfolio/transactions',
        headers: user.headers,
        payload: trade,
      });
      expect(recorded.statusCode).toBe(201);
    }
    const rebalance = await sut.inject({
      method: 'POST',
      url: '/api/v1/portfolio/rebalance',
      headers: user.headers,
      payload: {
        targets: [
          { symbol: 'AAPL', weight: 50 },
          { symbol: 'MSFT', weight: 50 },
        ],
      },
    });
    expect({ status: rebalance.statusCode, body: rebalance.json() }).toEqual({ status: 400, body: FULL });
    const listed = await sut.inject({ url: '/api/v1/portfolio/transactions', headers: user.headers });
    expect(listed.json().total).toBe(2);
  });
});
