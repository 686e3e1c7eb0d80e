import { registerUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { asCsv, dataOf, typedApi } from '../support/typed-api';

const FULL = {
  detail: 'The ledger would exceed 3 transactions, the most one user may hold (see docs/input-limits.md)',
};
const buy = { symbol: 'AAPL', side: 'buy', quantity: 1, price: 100, executed_at: '2025-01-06' } as const;

describe('ledger size cap (PORTFOLIO_MAX_TRANSACTIONS)', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ env: { PORTFOLIO_MAX_TRANSACTIONS: '3' } });
  });
  afterAll(() => sut.close());

  it('refuses a write or an import that would take the ledger past the cap with 400, storing nothing', async () => {
    const user = await registerUser(sut);
    const api = typedApi(sut, user);
    const post = () => api.POST('/api/v1/portfolio/transactions', { body: buy });
    const importRows = (rows: number) =>
      api.POST('/api/v1/portfolio/transactions/import', {
        body: `date,symbol,side,quantity,price,fees\n${'2025-01-06,MSFT,buy,1,100,0\n'.repeat(rows)}`,
        ...asCsv,
      });
    const total = async () => dataOf(await api.GET('/api/v1/portfolio/transactions')).total;

    expect((await post()).response.status).toBe(201);
    expect((await post()).response.status).toBe(201);
    const tooMany = await importRows(2);
    expect({ status: tooMany.response.status, body: tooMany.error }).toEqual({ status: 400, body: FULL });
    expect(await total()).toBe(2);
    expect((await importRows(1)).response.status).toBe(201);
    const full = await post();
    expect({ status: full.response.status, body: full.error }).toEqual({ status: 400, body: FULL });
    expect(await total()).toBe(3);
    const other = await registerUser(sut);
    const otherTrade = await typedApi(sut, other).POST('/api/v1/portfolio/transactions', { body: buy });
    expect(otherTrade.response.status).toBe(201);
  });

  it('holds an executed rebalance to the cap as well', async () => {
    const user = await registerUser(sut);
    const api = typedApi(sut, user);
    for (const trade of [
      { ...buy, quantity: 20 },
      { ...buy, symbol: 'MSFT' },
    ]) {
      const recorded = await api.POST('/api/v1/portfolio/transactions', { body: trade });
      expect(recorded.response.status).toBe(201);
    }
    const rebalance = await api.POST('/api/v1/portfolio/rebalance', {
      body: {
        targets: [
          { symbol: 'AAPL', weight: 50 },
          { symbol: 'MSFT', weight: 50 },
        ],
      },
    });
    expect({ status: rebalance.response.status, body: rebalance.error }).toEqual({ status: 400, body: FULL });
    const listed = await api.GET('/api/v1/portfolio/transactions');
    expect(listed.data?.total).toBe(2);
  });
});
