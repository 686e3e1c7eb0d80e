import { DataSource } from 'typeorm';
import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';

const BASE = '/api/v1/portfolio';

describe('portfolio ledger, positions and summary', () => {
  const clock = new FakeClock();
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const record = (user: TestUser, payload: object) =>
    sut.inject({ method: 'POST', url: `${BASE}/transactions`, headers: user.headers, payload });
  const get = (user: TestUser, path: string) => sut.inject({ url: `${BASE}/${path}`, headers: user.headers });
  const quote = async (symbol: string) =>
    (
      await sut.inject({ url: `/api/v1/market/stock/${symbol}`, headers: (await registerUser(sut)).headers })
    ).json();

  it('requires a token on every endpoint', async () => {
    for (const path of ['', 'positions', 'summary', 'risk-metrics', 'transactions']) {
      const response = await sut.inject({ url: `${BASE}/${path}` });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'Could not validate credentials' });
    }
  });

  it('documents every portfolio route and shape in the OpenAPI document', async () => {
    const document = (await sut.inject({ url: '/openapi.json' })).json();
    const responseSchema = (path: string, method: string, status: string) =>
      document.paths[path][method].responses[status].content['application/json'].schema.$ref;
    expect(responseSchema('/api/v1/portfolio/positions', 'get', '200')).toBe(
      '#/components/schemas/PositionsResponse',
    );
    expect(responseSchema('/api/v1/portfolio/summary', 'get', '200')).toBe(
      '#/components/schemas/SummaryResponse',
    );
    expect(responseSchema('/api/v1/portfolio/risk-metrics', 'get', '200')).toBe(
      '#/components/schemas/RiskMetricsResponse',
    );
    expect(responseSchema('/api/v1/portfolio/rebalance', 'post', '200')).toBe(
      '#/components/schemas/RebalanceResponse',
    );
    expect(responseSchema('/api/v1/portfolio', 'get', '200')).toBe('#/components/schemas/OverviewResponse');
    expect(responseSchema('/api/v1/portfolio/transactions', 'post', '201')).toBe(
      '#/components/schemas/TransactionResponse',
    );
    expect(
      Object.keys(document.paths['/api/v1/portfolio/transactions/import'].post.requestBody.content),
    ).toEqual(['text/csv']);
    const schemas = document.components.schemas;
    expect(Object.keys(schemas.PositionResponse.properties)).toEqual([
      'symbol',
      'quantity',
      'current_price',
      'cost_basis',
      'market_value',
      'unrealized_pnl',
      'unrealized_pnl_percent',
      'day_change',
      'day_change_percent',
      'weight',
      'sector',
      'last_updated',
    ]);
    expect(Object.keys(schemas.PerformanceResponse.properties)).toEqual(['1M', '3M', 'YTD', '1Y', 'ALL']);
    expect(schemas.RiskMetricsResponse.properties.volatility.description).toContain('√252');
  });

  it('answers an empty portfolio with empty positions, zero totals and null performance', async () => {
    const user = await registerUser(sut);
    expect((await get(user, 'positions')).json()).toEqual({ positions: [] });
    const summary = await get(user, 'summary');
    expect(summary.statusCode).toBe(200);
    expect(summary.json()).toEqual({
      total_value: 0,
      total_cost: 0,
      unrealized_pnl: 0,
      unrealized_pnl_percent: 0,
      realized_pnl: 0,
      day_change: 0,
      day_change_percent: 0,
      positions_count: 0,
      sector_allocation: [],
      best_performer: null,
      worst_performer: null,
      performance: { '1M': null, '3M': null, YTD: null, '1Y': null, ALL: null },
      as_of: clock.now().toISOString(),
      money_weighted_performance: { '1M': null, '3M': null, YTD: null, '1Y': null, ALL: null },
    });
    expect((await get(user, 'transactions')).json()).toEqual({
      transactions: [],
      total: 0,
      skip: 0,
      limit: 100,
    });
  });

  it('records a transaction with 201 and returns it in the ledger shape', async () => {
    const user = await registerUser(sut);
    const response = await record(user, {
      symbol: 'aapl',
      side: 'buy',
      quantity: 10,
      price: 150.25,
      executed_at: '2025-01-06T15:30:00Z',
      fees: 1,
      note: 'first lot',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      account_id: expect.any(Number),
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 150.25,
      fees: 1,
      executed_at: '2025-01-06T15:30:00.000Z',
      note: 'first lot',
      realized_pnl: null,
      created_at: clock.now().toISOString(),
      updated_at: null,
    });
  });

  it('refuses unknown symbols, bad fields and future dates', async () => {
    const user = await registerUser(sut);
    const valid = { symbol: 'AAPL', side: 'buy', quantity: 1, price: 100, executed_at: '2025-01-06' };

    const unknown = await record(user, { ...valid, symbol: 'ZZZZZ' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Stock ZZZZZ not found' });

    const future = await record(user, {
      ...valid,
      executed_at: new Date(clock.now().getTime() + 60_000).toISOString(),
    });
    expect(future.statusCode).toBe(422);
    expect(future.json()).toEqual({
      detail: [
        {
          loc: ['body', 'executed_at'],
          msg: 'Value error, executed_at must not be in the future',
          type: 'value_error',
        },
      ],
    });

    const bad = await record(user, {
      side: 'hold',
      quantity: 0,
      price: -1,
      executed_at: 'yesterday',
      fees: -1,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'symbol'], msg: 'Field required', type: 'missing' },
        {
          loc: ['body', 'side'],
          msg: "Input should be 'buy', 'sell', 'dividend', 'split', 'deposit', 'withdrawal', 'fee', 'interest', 'transfer_in' or 'transfer_out'",
          type: 'enum',
          ctx: {
            expected:
              "'buy', 'sell', 'dividend', 'split', 'deposit', 'withdrawal', 'fee', 'interest', 'transfer_in' or 'transfer_out'",
          },
        },
        {
          loc: ['body', 'quantity'],
          msg: 'Input should be greater than 0',
          type: 'greater_than',
          ctx: { gt: 0 },
        },
        {
          loc: ['body', 'price'],
          msg: 'Input should be greater than 0',
          type: 'greater_than',
          ctx: { gt: 0 },
        },
        {
          loc: ['body', 'executed_at'],
          msg: 'Input should be a valid datetime or date',
          type: 'datetime_parsing',
        },
        {
          loc: ['body', 'fees'],
          msg: 'Input should be greater than or equal to 0',
          type: 'greater_than_equal',
          ctx: { ge: 0 },
        },
      ]),
    );
    const weekDate = await record(user, { ...valid, executed_at: '2025-W02' });
    expect(weekDate.statusCode).toBe(422);
    expect(weekDate.json().detail).toEqual([
      {
        loc: ['body', 'executed_at'],
        msg: 'Input should be a valid datetime or date',
        type: 'datetime_parsing',
      },
    ]);
    const noZone = await record(user, { ...valid, executed_at: '2025-01-06T15:30:00' });
    expect(noZone.json().executed_at).toBe('2025-01-06T15:30:00.000Z');
    expect((await get(user, 'transactions')).json().total).toBe(1);
  });

  it('refuses a sell beyond the quantity held at its date, also when back-dated before a later sell', async () => {
    const user = await registerUser(sut);
    await record(user, { symbol: 'MSFT', side: 'buy', quantity: 10, price: 50, executed_at: '2025-02-03' });
    await record(user, { symbol: 'MSFT', side: 'sell', quantity: 8, price: 60, executed_at: '2025-04-01' });

    const tooMany = await record(user, {
      symbol: 'MSFT',
      side: 'sell',
      quantity: 3,
      price: 60,
      executed_at: '2025-05-01',
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ detail: 'Insufficient quantity of MSFT to sell' });

    // 10 held in March; selling 3 then leaves 7 for April's sell of 8
    const backDated = await record(user, {
      symbol: 'MSFT',
      side: 'sell',
      quantity: 3,
      price: 55,
      executed_at: '2025-03-01',
    });
    expect(backDated.statusCode).toBe(400);
    expect(backDated.json()).toEqual({ detail: 'Insufficient quantity of MSFT to sell' });

    const beforeBuy = await record(user, {
      symbol: 'MSFT',
      side: 'sell',
      quantity: 1,
      price: 55,
      executed_at: '2025-01-02',
    });
    expect(beforeBuy.statusCode).toBe(400);
    expect((await get(user, 'transactions')).json().total).toBe(2);
  });

  it('keeps average cost and realized P&L current, and refuses deletes that break a later sell', async () => {
    const user = await registerUser(sut);
    const buy1 = (
      await record(user, {
        symbol: 'XOM',
        side: 'buy',
        quantity: 10,
        price: 150,
        executed_at: '2025-01-06',
        fees: 1,
      })
    ).json();
    await record(user, {
      symbol: 'XOM',
      side: 'buy',
      quantity: 10,
      price: 170,
      executed_at: '2025-02-03',
      fees: 1,
    });
    // average cost 3202 / 20 = 160.1; selling 5 @ 200 with 2 fees realizes 1000 - 2 - 800.5 = 197.5
    const sell = (
      await record(user, {
        symbol: 'XOM',
        side: 'sell',
        quantity: 5,
        price: 200,
        executed_at: '2025-03-03',
        fees: 2,
      })
    ).json();
    expect(sell.realized_pnl).toBe(197.5);

    // a back-dated buy of 5 @ 100 lowers the average to 3702 / 25 = 148.08 → 1000 - 2 - 740.4 = 257.6
    const backDated = (
      await record(user, { symbol: 'XOM', side: 'buy', quantity: 5, price: 100, executed_at: '2025-01-02' })
    ).json();
    const list = (await get(user, 'transactions?symbol=xom')).json();
    expect(list.transactions.find((row: { id: number }) => row.id === sell.id).realized_pnl).toBe(257.6);

    const deleted = await sut.inject({
      method: 'DELETE',
      url: `${BASE}/transactions/${backDated.id}`,
      headers: user.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const after = (await get(user, 'transactions')).json();
    expect(after.total).toBe(3);
    expect(after.transactions.find((row: { id: number }) => row.id === sell.id).realized_pnl).toBe(197.5);

    // 15 held after the sell; deleting the first buy would leave 10 for the sell of 5: fine.
    // Deleting the second buy too would leave nothing for the sell.
    expect(
      (await sut.inject({ method: 'DELETE', url: `${BASE}/transactions/${buy1.id}`, headers: user.headers }))
        .statusCode,
    ).toBe(204);
    const second = after.transactions.find((row: { price: number }) => row.price === 170);
    const refused = await sut.inject({
      method: 'DELETE',
      url: `${BASE}/transactions/${second.id}`,
      headers: user.headers,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      detail: 'Cannot delete this transaction: a later sell of XOM would exceed the quantity held',
    });
  });

  it('values positions at live quotes with every spec field, heaviest first', async () => {
    const user = await registerUser(sut);
    await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 150,
      executed_at: '2025-01-06',
      fees: 1,
    });
    await record(user, {
      symbol: 'AAPL',
      side: 'buy',
      quantity: 10,
      price: 170,
      executed_at: '2025-02-03',
      fees: 1,
    });
    await record(user, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 5,
      price: 200,
      executed_at: '2025-03-03',
      fees: 2,
    });
    await record(user, { symbol: 'JNJ', side: 'buy', quantity: 4, price: 120, executed_at: '2025-03-03' });
    await record(user, { symbol: 'XOM', side: 'buy', quantity: 3, price: 90, executed_at: '2025-03-04' });
    const quotes = { AAPL: await quote('AAPL'), JNJ: await quote('JNJ'), XOM: await quote('XOM') };

    const response = await get(user, 'positions');
    expect(response.statusCode).toBe(200);
    const { positions } = response.json();
    const expected = [
      { symbol: 'AAPL', quantity: 15, cost_basis: 2401.5, sector: 'technology' },
      { symbol: 'JNJ', quantity: 4, cost_basis: 480, sector: 'healthcare' },
      { symbol: 'XOM', quantity: 3, cost_basis: 270, sector: 'energy' },
    ];
    const total = expected.reduce(
      (sum, row) => sum + row.quantity * quotes[row.symbol as keyof typeof quotes].price,
      0,
    );
    for (const row of expected) {
      const stock = quotes[row.symbol as keyof typeof quotes];
      const marketValue = row.quantity * stock.price;
      const position = positions.find((candidate: { symbol: string }) => candidate.symbol === row.symbol);
      expect(position).toEqual({
        symbol: row.symbol,
        quantity: row.quantity,
        current_price: stock.price,
        cost_basis: row.cost_basis,
        market_value: expect.closeTo(marketValue, 2),
        unrealized_pnl: expect.closeTo(marketValue - row.cost_basis, 2),
        unrealized_pnl_percent: expect.closeTo((100 * (marketValue - row.cost_basis)) / row.cost_basis, 3),
        day_change: expect.closeTo(row.quantity * stock.change, 1),
        day_change_percent: expect.closeTo(stock.changePercent, 1),
        weight: expect.closeTo((100 * marketValue) / total, 3),
        sector: row.sector,
        last_updated: clock.now().toISOString(),
      });
    }
    const weights = positions.map((position: { weight: number }) => position.weight);
    expect(weights.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(100, 2);
    expect([...weights].sort((a, b) => b - a)).toEqual(weights);

    const summary = (await get(user, 'summary')).json();
    const sum = (field: string) =>
      positions.reduce((acc: number, position: Record<string, number>) => acc + position[field], 0);
    expect(summary.total_value).toBeCloseTo(sum('market_value'), 1);
    expect(summary.total_cost).toBeCloseTo(3151.5, 2);
    expect(summary.unrealized_pnl).toBeCloseTo(summary.total_value - summary.total_cost, 1);
    expect(summary.realized_pnl).toBe(197.5);
    expect(summary.day_change).toBeCloseTo(sum('day_change'), 1);
    expect(summary.positions_count).toBe(3);
    expect(summary.sector_allocation.map((entry: { sector: string }) => entry.sector).sort()).toEqual([
      'energy',
      'healthcare',
      'technology',
    ]);
    const byPnl = [...positions].sort(
      (a: { unrealized_pnl_percent: number }, b: { unrealized_pnl_percent: number }) =>
        b.unrealized_pnl_percent - a.unrealized_pnl_percent,
    );
    expect(summary.best_performer).toEqual({
      symbol: byPnl[0].symbol,
      unrealized_pnl_percent: byPnl[0].unrealized_pnl_percent,
    });
    expect(summary.worst_performer.symbol).toBe(byPnl[2].symbol);
  });

  it('lists the ledger newest first with filters and paging', async () => {
    const user = await registerUser(sut);
    for (const [symbol, day] of [
      ['AAPL', '2025-01-06'],
      ['MSFT', '2025-02-03'],
      ['AAPL', '2025-03-03'],
      ['XOM', '2025-04-01'],
    ]) {
      await record(user, { symbol, side: 'buy', quantity: 1, price: 10, executed_at: day });
    }
    const all = (await get(user, 'transactions')).json();
    expect(all.transactions.map((row: { executed_at: string }) => row.executed_at.slice(0, 10))).toEqual([
      '2025-04-01',
      '2025-03-03',
      '2025-02-03',
      '2025-01-06',
    ]);
    const aapl = (await get(user, 'transactions?symbol=aapl')).json();
    expect(aapl.total).toBe(2);
    const window = (await get(user, 'transactions?from=2025-02-01&to=2025-03-03')).json();
    expect(window.transactions.map((row: { symbol: string }) => row.symbol)).toEqual(['AAPL', 'MSFT']);
    const page = (await get(user, 'transactions?skip=1&limit=2')).json();
    expect(page).toMatchObject({ total: 4, skip: 1, limit: 2 });
    expect(page.transactions.map((row: { symbol: string }) => row.symbol)).toEqual(['AAPL', 'MSFT']);

    const badLimit = await get(user, 'transactions?limit=0');
    expect(badLimit.statusCode).toBe(422);
    expect(badLimit.json().detail[0]).toMatchObject({ loc: ['query', 'limit'], type: 'greater_than_equal' });
    const badId = await sut.inject({
      method: 'DELETE',
      url: `${BASE}/transactions/abc`,
      headers: user.headers,
    });
    expect(badId.statusCode).toBe(422);
    expect(badId.json().detail[0]).toMatchObject({ loc: ['path', 'id'], type: 'int_parsing' });
    const missing = await sut.inject({
      method: 'DELETE',
      url: `${BASE}/transactions/999999`,
      headers: user.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Transaction not found' });
  });

  it('isolates users: nobody sees, values or deletes another user’s trades', async () => {
    const owner = await registerUser(sut);
    const other = await registerUser(sut);
    const trade = (
      await record(owner, { symbol: 'AAPL', side: 'buy', quantity: 2, price: 100, executed_at: '2025-01-06' })
    ).json();

    expect((await get(other, 'transactions')).json().total).toBe(0);
    expect((await get(other, 'positions')).json()).toEqual({ positions: [] });
    expect((await get(other, 'summary')).json().positions_count).toBe(0);
    const sell = await record(other, {
      symbol: 'AAPL',
      side: 'sell',
      quantity: 1,
      price: 100,
      executed_at: '2025-02-03',
    });
    expect(sell.statusCode).toBe(400);
    const steal = await sut.inject({
      method: 'DELETE',
      url: `${BASE}/transactions/${trade.id}`,
      headers: other.headers,
    });
    expect(steal.statusCode).toBe(404);
    expect((await get(owner, 'transactions')).json().total).toBe(1);
  });

  it('serialises concurrent sells so that they never exceed the holding', async () => {
    const user = await registerUser(sut);
    await record(user, { symbol: 'AAPL', side: 'buy', quantity: 10, price: 100, executed_at: '2025-01-06' });
    const sells = await Promise.all(
      Array.from({ length: 6 }, () =>
        record(user, { symbol: 'AAPL', side: 'sell', quantity: 3, price: 110, executed_at: '2025-02-03' }),
      ),
    );
    const statuses = sells.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 400, 400, 400]);
    const [position] = (await get(user, 'positions')).json().positions;
    expect(position.quantity).toBe(1);
    const rows = await sut.app
      .get(DataSource)
      .query('SELECT count(*)::int AS count FROM portfolio_transactions WHERE user_id = $1', [user.id]);
    expect(rows[0].count).toBe(4);
  });
});
