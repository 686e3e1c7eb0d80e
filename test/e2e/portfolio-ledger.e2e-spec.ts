import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';

const BASE = '/api/v1/portfolio';

// The ledger's rules and figures are checked without HTTP in test/medium/portfolio-ledger.medium-spec.ts.
describe('portfolio ledger, positions and summary over HTTP', () => {
  const clock = new FakeClock();
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const record = (user: TestUser, payload: object) =>
    sut.inject({ method: 'POST', url: `${BASE}/transactions`, headers: user.headers, payload });
  const get = (user: TestUser, path: string) => sut.inject({ url: `${BASE}/${path}`, headers: user.headers });

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

  it('answers rules broken as 400 and 404 with their detail, a deletion as 204 without a body', async () => {
    const user = await registerUser(sut);
    const buy = (
      await record(user, { symbol: 'MSFT', side: 'buy', quantity: 10, price: 50, executed_at: '2025-02-03' })
    ).json();
    const oversell = await record(user, {
      symbol: 'MSFT',
      side: 'sell',
      quantity: 11,
      price: 60,
      executed_at: '2025-05-01',
    });
    expect(oversell.statusCode).toBe(400);
    expect(oversell.json()).toEqual({ detail: 'Insufficient quantity of MSFT to sell' });

    const missing = await sut.inject({
      method: 'DELETE',
      url: `${BASE}/transactions/999999`,
      headers: user.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Transaction not found' });
    const deleted = await sut.inject({
      method: 'DELETE',
      url: `${BASE}/transactions/${buy.id}`,
      headers: user.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
  });

  it('answers positions, the summary and the ledger in the spec shape, rounded at the edge', async () => {
    const user = await registerUser(sut);
    await record(user, {
      symbol: 'XOM',
      side: 'buy',
      quantity: 10,
      price: 150,
      executed_at: '2025-01-06',
      fees: 1,
    });
    await record(user, {
      symbol: 'XOM',
      side: 'buy',
      quantity: 10,
      price: 170,
      executed_at: '2025-02-03',
      fees: 1,
    });
    // average cost 3202 / 20 = 160.1; selling 5 @ 200 with 2 fees realizes 1000 - 2 - 800.5 = 197.5
    const sell = await record(user, {
      symbol: 'XOM',
      side: 'sell',
      quantity: 5,
      price: 200,
      executed_at: '2025-03-03',
      fees: 2,
    });
    expect(sell.json().realized_pnl).toBe(197.5);
    const [position] = (await get(user, 'positions')).json().positions;
    expect(position).toEqual({
      symbol: 'XOM',
      quantity: 15,
      current_price: expect.any(Number),
      cost_basis: 2401.5,
      market_value: expect.any(Number),
      unrealized_pnl: expect.any(Number),
      unrealized_pnl_percent: expect.any(Number),
      day_change: expect.any(Number),
      day_change_percent: expect.any(Number),
      weight: 100,
      sector: 'energy',
      last_updated: clock.now().toISOString(),
    });
    const summary = (await get(user, 'summary')).json();
    expect(summary).toMatchObject({ total_cost: 2401.5, realized_pnl: 197.5, positions_count: 1 });
    expect(summary.best_performer).toEqual({
      symbol: 'XOM',
      unrealized_pnl_percent: position.unrealized_pnl_percent,
    });
    const list = (await get(user, 'transactions?symbol=xom&skip=1&limit=1')).json();
    expect(list).toMatchObject({ total: 3, skip: 1, limit: 1 });
    expect(list.transactions[0].executed_at).toBe('2025-02-03T00:00:00.000Z');
  });

  it('answers a bad query or path parameter with 422 at its loc', async () => {
    const user = await registerUser(sut);
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
  });
});
