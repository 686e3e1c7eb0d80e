import { IncomingHttpHeaders, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Schemas } from '../../client';
import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';
import { asCsv, dataOf, issuesOf, typedApi } from '../support/typed-api';

const BASE = '/api/v1/portfolio';

/** A GET over a socket, its body as sent (fetch would decode it and hide the framing). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

// Raw `sut.inject()` on purpose: the 4xx bodies the types forbid (wrong types, unknown fields,
// malformed ids), the overview at the spec's path (its trailing slash), the
// wire bytes of lots and realized and the OpenAPI document.

// The hand-computed ledger of docs/portfolio.md ("Dividends, splits and cash"):
//   01-02 deposit 10,000                          cash 10,000
//   01-06 buy 10 AAPL @ 150, fees 1               cash  8,499        cost basis 1,501
//   02-14 dividend AAPL 2.50, 0.38 withheld       cash  8,501.12
//   03-03 split AAPL 4:1                          40 shares, cost basis 1,501
//   03-04 interest 1.25                           cash  8,502.37
//   03-05 fee 3 on AAPL, fee 5 on the account     cash  8,494.37
//   03-06 withdrawal 500                          cash  7,994.37
//   03-07 sell 4 AAPL @ 40                        cash  8,154.37     realized 160 − 1,501 × 4/40 = 9.90
const LEDGER: Schemas['CreateTransactionDto'][] = [
  { side: 'deposit', amount: 10000, executed_at: '2025-01-02' },
  { symbol: 'AAPL', side: 'buy', quantity: 10, price: 150, fees: 1, executed_at: '2025-01-06' },
  { symbol: 'AAPL', side: 'dividend', amount: 2.5, withholding_tax: 0.38, executed_at: '2025-02-14' },
  { symbol: 'AAPL', side: 'split', ratio: '4:1', executed_at: '2025-03-03' },
  { side: 'interest', amount: 1.25, executed_at: '2025-03-04' },
  { symbol: 'AAPL', side: 'fee', amount: 3, executed_at: '2025-03-05', note: 'custody' },
  { side: 'fee', amount: 5, executed_at: '2025-03-05' },
  { side: 'withdrawal', amount: 500, executed_at: '2025-03-06' },
  { symbol: 'AAPL', side: 'sell', quantity: 4, price: 40, executed_at: '2025-03-07' },
];

/**
 * The portfolio's HTTP contract: statuses, the wire shapes of answers and errors (`loc`, `detail`),
 * authentication. Its rules and figures are checked on the medium tier (test/medium/portfolio.*). One
 * app serves every group (booting one costs more than most of its tests); each group sets its clock.
 */
describe('the portfolio over HTTP', () => {
  const clock = new FakeClock();
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const { postTransaction } = portfolioCalls(() => sut);

  // The ledger's rules and figures are checked without HTTP in test/medium/portfolio-ledger.medium-cases.ts.
  describe('portfolio ledger, positions and summary over HTTP', () => {
    beforeAll(() => clock.set(new Date()));

    const { read } = portfolioCalls(() => sut);

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
      expect(dataOf(await read.positions(user))).toEqual({ positions: [] });
      const summary = await read.summary(user);
      expect(summary.response.status).toBe(200);
      expect(dataOf(summary)).toEqual({
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
      expect(dataOf(await read.transactions(user))).toEqual({
        transactions: [],
        total: 0,
        skip: 0,
        limit: 100,
      });
    });

    it('records a transaction with 201 and returns it in the ledger shape', async () => {
      const user = await registerUser(sut);
      const response = await postTransaction(user, {
        symbol: 'aapl',
        side: 'buy',
        quantity: 10,
        price: 150.25,
        executed_at: '2025-01-06T15:30:00Z',
        fees: 1,
        note: 'first lot',
      });
      expect(response.response.status).toBe(201);
      expect(response.data).toEqual({
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
      const valid: Schemas['CreateTransactionDto'] = {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 1,
        price: 100,
        executed_at: '2025-01-06',
      };

      const unknown = await postTransaction(user, { ...valid, symbol: 'ZZZZZ' });
      expect(unknown.response.status).toBe(404);
      expect(unknown.error).toEqual({ detail: 'Stock ZZZZZ not found' });

      const future = await postTransaction(user, {
        ...valid,
        executed_at: new Date(clock.now().getTime() + 60_000).toISOString(),
      });
      expect(future.response.status).toBe(422);
      expect(future.error).toEqual({
        detail: [
          {
            loc: ['body', 'executed_at'],
            msg: 'Value error, executed_at must not be in the future',
            type: 'value_error',
          },
        ],
      });

      // Raw: no symbol and a side outside its enum.
      const bad = await sut.inject({
        method: 'POST',
        url: `${BASE}/transactions`,
        headers: user.headers,
        payload: { side: 'hold', quantity: 0, price: -1, executed_at: 'yesterday', fees: -1 },
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
      const weekDate = await postTransaction(user, { ...valid, executed_at: '2025-W02' });
      expect(weekDate.response.status).toBe(422);
      expect(issuesOf(weekDate)).toEqual([
        {
          loc: ['body', 'executed_at'],
          msg: 'Input should be a valid datetime or date',
          type: 'datetime_parsing',
        },
      ]);
      const noZone = await postTransaction(user, { ...valid, executed_at: '2025-01-06T15:30:00' });
      expect(dataOf(noZone).executed_at).toBe('2025-01-06T15:30:00.000Z');
      expect(dataOf(await read.transactions(user)).total).toBe(1);
    });

    it('answers rules broken as 400 and 404 with their detail, a deletion as 204 without a body', async () => {
      const user = await registerUser(sut);
      const buy = dataOf(
        await postTransaction(user, {
          symbol: 'MSFT',
          side: 'buy',
          quantity: 10,
          price: 50,
          executed_at: '2025-02-03',
        }),
      );
      const oversell = await postTransaction(user, {
        symbol: 'MSFT',
        side: 'sell',
        quantity: 11,
        price: 60,
        executed_at: '2025-05-01',
      });
      expect(oversell.response.status).toBe(400);
      expect(oversell.error).toEqual({ detail: 'Insufficient quantity of MSFT to sell' });

      const remove = (id: number) =>
        typedApi(sut, user).DELETE('/api/v1/portfolio/transactions/{id}', { params: { path: { id } } });
      const missing = await remove(999999);
      expect(missing.response.status).toBe(404);
      expect(missing.error).toEqual({ detail: 'Transaction not found' });
      const deleted = await remove(buy.id);
      expect(deleted.response.status).toBe(204);
      expect(await deleted.response.text()).toBe('');
    });

    it('answers positions, the summary and the ledger in the spec shape, rounded at the edge', async () => {
      const user = await registerUser(sut);
      await postTransaction(user, {
        symbol: 'XOM',
        side: 'buy',
        quantity: 10,
        price: 150,
        executed_at: '2025-01-06',
        fees: 1,
      });
      await postTransaction(user, {
        symbol: 'XOM',
        side: 'buy',
        quantity: 10,
        price: 170,
        executed_at: '2025-02-03',
        fees: 1,
      });
      // average cost 3202 / 20 = 160.1; selling 5 @ 200 with 2 fees realizes 1000 - 2 - 800.5 = 197.5
      const sell = await postTransaction(user, {
        symbol: 'XOM',
        side: 'sell',
        quantity: 5,
        price: 200,
        executed_at: '2025-03-03',
        fees: 2,
      });
      expect(dataOf(sell).realized_pnl).toBe(197.5);
      const [position] = dataOf(await read.positions(user)).positions;
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
      const summary = dataOf(await read.summary(user));
      expect(summary).toMatchObject({ total_cost: 2401.5, realized_pnl: 197.5, positions_count: 1 });
      expect(summary.best_performer).toEqual({
        symbol: 'XOM',
        unrealized_pnl_percent: position.unrealized_pnl_percent,
      });
      const list = dataOf(await read.transactions(user, { symbol: 'xom', skip: 1, limit: 1 }));
      expect(list).toMatchObject({ total: 3, skip: 1, limit: 1 });
      expect(list.transactions[0].executed_at).toBe('2025-02-03T00:00:00.000Z');
    });

    it('answers a bad query or path parameter with 422 at its loc', async () => {
      const user = await registerUser(sut);
      const badLimit = await read.transactions(user, { limit: 0 });
      expect(badLimit.response.status).toBe(422);
      expect(issuesOf(badLimit)[0]).toMatchObject({
        loc: ['query', 'limit'],
        type: 'greater_than_equal',
      });
      const badId = await sut.inject({
        method: 'DELETE',
        url: `${BASE}/transactions/abc`,
        headers: user.headers,
      });
      expect(badId.statusCode).toBe(422);
      expect(badId.json().detail[0]).toMatchObject({ loc: ['path', 'id'], type: 'int_parsing' });
    });
  });

  // The rules and figures of these kinds are checked without HTTP in test/medium/portfolio-cash.medium-cases.ts.
  describe('Ledger kinds beyond buy and sell over HTTP: dividends, splits, cash, and the income route', () => {
    beforeAll(() => clock.set('2025-03-12T22:00:00Z'));

    const { read } = portfolioCalls(() => sut);
    const importCsv = (user: TestUser, csv: string) =>
      typedApi(sut, user).POST('/api/v1/portfolio/transactions/import', { body: csv, ...asCsv });
    const valueError = (loc: (string | number)[], error: string) => ({
      loc,
      msg: `Value error, ${error}`,
      type: 'value_error',
    });

    async function recordLedger(user: TestUser) {
      const answers = [];
      for (const entry of LEDGER) {
        const response = await postTransaction(user, entry);
        expect(response.response.status).toBe(201);
        answers.push(dataOf(response));
      }
      return answers;
    }

    it('records every kind with its own fields, a buy and a sell with exactly the fields they always had', async () => {
      const user = await registerUser(sut);
      const answers = await recordLedger(user);
      const created_at = clock.now().toISOString();
      const common = {
        id: expect.any(Number),
        account_id: expect.any(Number),
        note: null,
        created_at,
        updated_at: null,
      };
      expect(answers).toEqual([
        { ...common, symbol: null, side: 'deposit', amount: 10000, executed_at: '2025-01-02T00:00:00.000Z' },
        {
          ...common,
          symbol: 'AAPL',
          side: 'buy',
          quantity: 10,
          price: 150,
          fees: 1,
          executed_at: '2025-01-06T00:00:00.000Z',
          realized_pnl: null,
        },
        {
          ...common,
          symbol: 'AAPL',
          side: 'dividend',
          amount: 2.5,
          withholding_tax: 0.38,
          executed_at: '2025-02-14T00:00:00.000Z',
        },
        { ...common, symbol: 'AAPL', side: 'split', ratio: '4:1', executed_at: '2025-03-03T00:00:00.000Z' },
        { ...common, symbol: null, side: 'interest', amount: 1.25, executed_at: '2025-03-04T00:00:00.000Z' },
        {
          ...common,
          symbol: 'AAPL',
          side: 'fee',
          amount: 3,
          executed_at: '2025-03-05T00:00:00.000Z',
          note: 'custody',
        },
        { ...common, symbol: null, side: 'fee', amount: 5, executed_at: '2025-03-05T00:00:00.000Z' },
        {
          ...common,
          symbol: null,
          side: 'withdrawal',
          amount: 500,
          executed_at: '2025-03-06T00:00:00.000Z',
        },
        {
          ...common,
          symbol: 'AAPL',
          side: 'sell',
          quantity: 4,
          price: 40,
          fees: 0,
          executed_at: '2025-03-07T00:00:00.000Z',
          realized_pnl: 9.9,
        },
      ]);
      expect(Object.keys(answers[1])).toEqual([
        'id',
        'account_id',
        'symbol',
        'side',
        'quantity',
        'price',
        'fees',
        'executed_at',
        'note',
        'realized_pnl',
        'created_at',
        'updated_at',
      ]);

      const [position] = dataOf(await read.positions(user)).positions;
      expect(position).toMatchObject({ symbol: 'AAPL', quantity: 36, cost_basis: 1350.9 });
      const price = position.current_price as number;

      const plain = dataOf(await read.summary(user));
      expect(plain).not.toHaveProperty('cash_balance');
      expect(plain).toMatchObject({ total_cost: 1350.9, realized_pnl: 9.9 });
      const withCash = dataOf(await read.summary(user, { include_cash: true }));
      expect(withCash.cash_balance).toBe(8154.37);
      expect(withCash.total_value_with_cash).toBeCloseTo(36 * price + 8154.37, 2);

      // With the cash as one more holding: 36 × price + 8,154.37 in all
      const withCashTotal = 36 * price + 8154.37;
      const weighed = dataOf(await read.positions(user, { include_cash: true }));
      expect(weighed).toEqual({
        positions: [{ ...position, weight: expect.closeTo((100 * 36 * price) / withCashTotal, 3) }],
        cash_balance: 8154.37,
        cash_weight: expect.closeTo((100 * 8154.37) / withCashTotal, 3),
      });
      expect(position.weight).toBe(100);
      const overview = dataOf(await read.overview(user, { include_cash: true }));
      expect(overview.summary).toMatchObject({ cash_balance: 8154.37 });
      expect(overview.cash_weight).toBe(weighed.cash_weight);
      expect(overview.top_positions[0].weight).toBe(weighed.positions[0].weight);
      const overviewAtSpecPath = await sut.inject({
        url: `${BASE}/?include_cash=true`,
        headers: user.headers,
      });
      expect(overviewAtSpecPath.statusCode).toBe(200);
      expect(overviewAtSpecPath.json()).toEqual({ ...overview, as_of: expect.any(String) });
      expect(dataOf(await read.overview(user))).not.toHaveProperty('cash_weight');

      const [lot] = dataOf(await read.lots(user)).lots;
      // (10 × 150 + 1) / 10 = 150.1 a share before the split, a quarter of it after
      expect(lot).toMatchObject({
        symbol: 'AAPL',
        acquired_on: '2025-01-06',
        quantity: 36,
        cost_basis: 1350.9,
      });
      expect(lot.cost_per_share).toBeCloseTo(37.525, 4);
    });

    it('answers the income of a period in the spec shape: money in cents, yields in percent', async () => {
      const user = await registerUser(sut);
      await recordLedger(user);
      const price = dataOf(await read.positions(user)).positions[0].current_price as number;
      const body = dataOf(await read.income(user, { period: 'YTD' }));
      expect(body).toEqual({
        period: 'YTD',
        totals: { dividends_gross: 2.5, withholding_tax: 0.38, dividends_net: 2.12, interest: 1.25 },
        by_month: [
          { month: '2025-02', dividends_gross: 2.5, withholding_tax: 0.38, dividends_net: 2.12, interest: 0 },
          { month: '2025-03', dividends_gross: 0, withholding_tax: 0, dividends_net: 0, interest: 1.25 },
        ],
        by_symbol: [{ symbol: 'AAPL', gross: 2.5, withholding_tax: 0.38, net: 2.12 }],
        trailing_12_months: {
          dividends_gross: 2.5,
          // 2.5 / 1,350.90 = 0.18506…%
          yield_on_cost: 0.1851,
          yield_on_value: expect.closeTo((100 * 2.5) / (36 * price), 4),
        },
        as_of: clock.now().toISOString(),
      });
      // Raw: a period outside the enum is what the types forbid.
      const invalid = await sut.inject({ url: `${BASE}/income?period=2Y`, headers: user.headers });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json().detail[0].loc).toEqual(['query', 'period']);
    });

    it('answers a field a kind does not take, misses or cannot hold with 422 at the field', async () => {
      const user = await registerUser(sut);
      const cases: [Schemas['CreateTransactionDto'], object[]][] = [
        [
          { symbol: 'AAPL', side: 'deposit', amount: 10, executed_at: '2025-01-02' },
          [valueError(['body', 'symbol'], 'symbol is not accepted for a deposit')],
        ],
        [
          { symbol: 'AAPL', side: 'dividend', executed_at: '2025-01-02' },
          [{ loc: ['body', 'amount'], msg: 'Field required', type: 'missing' }],
        ],
        [
          { side: 'withdrawal', amount: 0, executed_at: '2025-01-02' },
          [
            {
              loc: ['body', 'amount'],
              msg: 'Input should be greater than 0',
              type: 'greater_than',
              ctx: { gt: 0 },
            },
          ],
        ],
      ];
      for (const [payload, detail] of cases) {
        const response = await postTransaction(user, payload);
        expect({ payload, status: response.response.status, detail: response.error?.detail }).toEqual({
          payload,
          status: 422,
          detail,
        });
      }
      expect(dataOf(await read.transactions(user)).total).toBe(0);
    });

    it('imports an old-format file with 201, and refuses a bad file with 422 at each row and column', async () => {
      const user = await registerUser(sut);
      const old = await importCsv(
        user,
        'date,symbol,side,quantity,price,fees\n2025-01-06,aapl,buy,10,150,1\n',
      );
      expect(old.response.status).toBe(201);
      expect(dataOf(old).transactions[0]).toMatchObject({
        symbol: 'AAPL',
        side: 'buy',
        quantity: 10,
        fees: 1,
      });

      const bad = await importCsv(
        user,
        ['date,type,symbol,amount', '2025-03-10,deposit,,50', '2025-03-10,dividend,MSFT,1'].join('\n'),
      );
      expect(bad.response.status).toBe(422);
      expect(bad.error).toEqual({
        detail: [
          {
            loc: ['body', 1, 'symbol'],
            msg: 'Value error, No position in MSFT was held before this dividend',
            type: 'value_error',
            ctx: { error: 'No position in MSFT was held before this dividend' },
          },
        ],
      });
      expect(dataOf(await read.transactions(user)).total).toBe(1);
    });
  });

  // The figures of each method and the rules of naming lots are checked without HTTP in
  // test/medium/portfolio-cost-basis.medium-cases.ts.
  describe('Cost-basis methods over HTTP: settings, specific lots', () => {
    beforeAll(() => clock.set('2025-03-12T22:00:00Z'));

    const { read, record } = portfolioCalls(() => sut);
    const saveSettings = (user: TestUser, body: Schemas['UpdatePortfolioSettingsDto']) =>
      typedApi(sut, user).PUT('/api/v1/portfolio/settings', { body });
    const remove = (user: TestUser, id: number) =>
      typedApi(sut, user).DELETE('/api/v1/portfolio/transactions/{id}', { params: { path: { id } } });

    /** Lot 1: 10 AAPL at 100 (2024-01-05); lot 2: 5 AAPL at 200 + 5 fees = 201 a share (2025-01-06). */
    async function twoLots(user: TestUser): Promise<{ first: number; second: number }> {
      const first = await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 10,
        price: 100,
        executed_at: '2024-01-05',
      });
      const second = await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 5,
        price: 200,
        fees: 5,
        executed_at: '2025-01-06',
      });
      return { first, second };
    }

    const twelveSold = {
      symbol: 'AAPL',
      side: 'sell' as const,
      quantity: 12,
      price: 150,
      fees: 1,
      executed_at: '2025-02-03',
    };

    it('keeps per-user settings: defaults first, any subset changed, bad values refused', async () => {
      const user = await registerUser(sut);
      const other = await registerUser(sut);
      expect(dataOf(await read.settings(user))).toEqual({
        cost_basis_method: 'average',
        strict_cash: false,
      });

      const strict = await saveSettings(user, { strict_cash: true });
      expect(strict.response.status).toBe(200);
      expect(strict.data).toEqual({ cost_basis_method: 'average', strict_cash: true });
      const fifo = await saveSettings(user, { cost_basis_method: 'fifo' });
      expect(fifo.data).toEqual({ cost_basis_method: 'fifo', strict_cash: true });
      expect(dataOf(await read.settings(user))).toEqual({ cost_basis_method: 'fifo', strict_cash: true });
      expect((await saveSettings(user, {})).data).toEqual({ cost_basis_method: 'fifo', strict_cash: true });
      // another user's settings are their own
      expect(dataOf(await read.settings(other))).toEqual({
        cost_basis_method: 'average',
        strict_cash: false,
      });

      for (const [payload, field] of [
        [{ cost_basis_method: 'lifo' }, 'cost_basis_method'],
        [{ cost_basis_method: null }, 'cost_basis_method'],
        [{ strict_cash: 'yes' }, 'strict_cash'],
        [{ strict_cash: null }, 'strict_cash'],
      ] as const) {
        // Raw: a method outside the enum, nulls and a string where the types want a boolean.
        const invalid = await sut.inject({
          method: 'PUT',
          url: `${BASE}/settings`,
          headers: user.headers,
          payload,
        });
        expect(invalid.statusCode).toBe(422);
        expect(invalid.json().detail[0].loc).toEqual(['body', field]);
      }
      expect(dataOf(await read.settings(user))).toEqual({ cost_basis_method: 'fifo', strict_cash: true });
    });

    it('answers lots a sell cannot name with 422 at the lot, and stores nothing', async () => {
      const user = await registerUser(sut);
      const { first } = await twoLots(user);
      const refusal = async (body: Schemas['CreateTransactionDto']) => {
        const response = await postTransaction(user, body);
        expect(response.response.status).toBe(422);
        return issuesOf(response);
      };

      expect(
        await refusal({
          symbol: 'AAPL',
          side: 'buy',
          quantity: 1,
          price: 1,
          executed_at: '2025-02-03',
          lots: [{ lot_id: first, quantity: 1 }],
        }),
      ).toMatchObject([
        { loc: ['body', 'lots'], msg: 'Value error, Only a sell can name the lots it closes' },
      ]);
      expect(
        await refusal({
          ...twelveSold,
          lots: [
            { lot_id: first, quantity: 6 },
            { lot_id: first, quantity: 6 },
          ],
        }),
      ).toMatchObject([
        { loc: ['body', 'lots', 1, 'lot_id'], msg: `Value error, Lot ${first} is named more than once` },
      ]);
      for (const lots of [
        [],
        [{ lot_id: 0, quantity: 1 }],
        [{ lot_id: first, quantity: 0 }],
        [{ lot_id: 'x', quantity: 1 }],
      ]) {
        // Raw: a lot_id of the wrong type among them.
        const refused = await sut.inject({
          method: 'POST',
          url: `${BASE}/transactions`,
          headers: user.headers,
          payload: { ...twelveSold, lots },
        });
        expect(refused.statusCode).toBe(422);
      }
      expect(dataOf(await read.transactions(user)).total).toBe(2);
    });

    it('answers a deletion or back-dated sell around a named lot with 409 and its detail', async () => {
      const user = await registerUser(sut);
      const { first, second } = await twoLots(user);
      // lot 3: 10 AAPL at 150 on 2025-01-10
      await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 10,
        price: 150,
        executed_at: '2025-01-10',
      });
      const sell = await record(user, {
        ...twelveSold,
        lots: [
          { lot_id: second, quantity: 5 },
          { lot_id: first, quantity: 7 },
        ],
      });

      const deletion = await remove(user, second);
      expect(deletion.response.status).toBe(409);
      expect(deletion.error).toEqual({
        detail: `Cannot delete this transaction: the sell ${sell} names lot ${second}, which would not stay open for it`,
      });

      // a sell of 4 before it, naming nothing, would close 4 of lot 1 first (FIFO), leaving 6 of the 7 named
      const backDated = await postTransaction(user, {
        symbol: 'AAPL',
        side: 'sell',
        quantity: 4,
        price: 120,
        executed_at: '2025-01-20',
      });
      expect(backDated.response.status).toBe(409);
      expect(backDated.error).toEqual({
        detail: `Cannot record this transaction: the sell ${sell} names lot ${first}, which would not stay open for it`,
      });
      expect((await remove(user, sell)).response.status).toBe(204);
      expect((await remove(user, second)).response.status).toBe(204);
    });
  });

  // Which lots a sell closes and the gains it realizes are checked without HTTP in
  // test/medium/portfolio-lots.medium-cases.ts.
  describe('GET /portfolio/lots and /portfolio/realized: FIFO tax lots over HTTP', () => {
    beforeAll(() => clock.set('2025-03-12T22:00:00Z'));

    const { read, record } = portfolioCalls(() => sut);

    it('answers the open lots in the spec shape, rounded at the edge', async () => {
      const user = await registerUser(sut);
      expect(dataOf(await read.lots(user))).toEqual({
        method: 'fifo',
        lots: [],
        as_of: '2025-03-12T22:00:00.000Z',
      });
      const msftLot = await record(user, {
        symbol: 'MSFT',
        side: 'buy',
        quantity: 1,
        price: 300,
        executed_at: '2023-06-01',
      });
      await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 10,
        price: 100,
        executed_at: '2024-01-05',
      });
      const aaplLot = await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 5,
        price: 200,
        fees: 5,
        executed_at: '2025-01-06',
      });
      // 12 sold: all 10 of January 2024, then 2 of the 5 of January 2025
      await record(user, {
        symbol: 'AAPL',
        side: 'sell',
        quantity: 12,
        price: 150,
        fees: 1,
        executed_at: '2025-02-03',
      });

      const positions = dataOf(await read.positions(user)).positions as {
        symbol: string;
        current_price: number;
      }[];
      const priceOf = (symbol: string) =>
        positions.find((position) => position.symbol === symbol)!.current_price;
      const body = dataOf(await read.lots(user));
      const aapl = priceOf('AAPL');
      const msft = priceOf('MSFT');
      expect(body.lots).toEqual([
        {
          lot_id: aaplLot,
          account_id: expect.any(Number),
          symbol: 'AAPL',
          acquired_on: '2025-01-06',
          quantity: 3,
          // (5 × 200 + 5) / 5
          cost_per_share: 201,
          cost_basis: 603,
          current_price: aapl,
          market_value: expect.closeTo(3 * aapl, 2),
          unrealized_pnl: expect.closeTo(3 * aapl - 603, 2),
          unrealized_pnl_percent: expect.closeTo((100 * (3 * aapl - 603)) / 603, 3),
          // Jan 6 → Mar 12: 25 + 28 + 12
          holding_days: 65,
          term: 'short',
        },
        {
          lot_id: msftLot,
          account_id: expect.any(Number),
          symbol: 'MSFT',
          acquired_on: '2023-06-01',
          quantity: 1,
          cost_per_share: 300,
          cost_basis: 300,
          current_price: msft,
          market_value: expect.closeTo(msft, 2),
          unrealized_pnl: expect.closeTo(msft - 300, 2),
          unrealized_pnl_percent: expect.closeTo((100 * (msft - 300)) / 300, 3),
          // 366 days to 2024-06-01 (29 Feb 2024 between), 273 to 2025-03-01, 11 more
          holding_days: 650,
          term: 'long',
        },
      ]);
    });

    it('answers the realized gains of a year in the spec shape, and 422 for a year out of range', async () => {
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
        fees: 1,
        executed_at: '2025-02-03',
      });
      const transactions = dataOf(await read.transactions(user)).transactions as {
        id: number;
        side: string;
      }[];
      const sellId = transactions.find((transaction) => transaction.side === 'sell')!.id;

      // net proceeds 12 × 150 − 1 = 1,799, shared 10 : 2
      const expected = {
        year: 2025,
        method: 'fifo',
        realized: [
          {
            symbol: 'AAPL',
            sell_id: sellId,
            acquired_on: '2024-01-05',
            disposed_on: '2025-02-03',
            quantity: 10,
            proceeds: 1499.17,
            cost: 1000,
            gain: 499.17,
            term: 'long',
          },
          {
            symbol: 'AAPL',
            sell_id: sellId,
            acquired_on: '2025-01-06',
            disposed_on: '2025-02-03',
            quantity: 2,
            proceeds: 299.83,
            // 2 × 201
            cost: 402,
            gain: -102.17,
            term: 'short',
          },
        ],
        totals: { proceeds: 1799, cost: 1402, gain: 397, short_term_gain: -102.17, long_term_gain: 499.17 },
        as_of: '2025-03-12T22:00:00.000Z',
      };
      expect(dataOf(await read.realized(user, { year: 2025 }))).toEqual(expected);
      const invalid = await read.realized(user, { year: 1800 });
      expect(invalid.response.status).toBe(422);
      expect(issuesOf(invalid)[0].loc).toEqual(['query', 'year']);
    });

    it('answers JSON with the headers of the routes Fastify serializes for, errors included', async () => {
      const user = await registerUser(sut);
      await record(user, { symbol: 'AAPL', side: 'buy', quantity: 1, price: 100, executed_at: '2025-01-06' });
      // Raw: the wire itself (headers, byte length, body text) is the point.
      const get = (path: string) => sut.inject({ url: `${BASE}/${path}`, headers: user.headers });
      const serializedByFastify = await get('positions');
      for (const path of [
        'lots',
        'realized?year=2025',
        'history',
        'lots?account_id=999999',
        'realized?year=1800',
        'history?benchmark=NOPEX',
      ]) {
        const response = await get(path);
        expect(response.headers['content-type']).toBe(serializedByFastify.headers['content-type']);
        expect(response.headers['content-length']).toBe(String(Buffer.byteLength(response.body)));
        expect(() => response.json()).not.toThrow();
      }
    });

    it('sends the same bytes over a socket, plain or compressed, with the length of what it sends', async () => {
      const user = await registerUser(sut);
      // Over 1 KiB each, which is where compression starts: 12 lots, 6 portions closed.
      for (let quantity = 1; quantity <= 12; quantity += 1) {
        await record(user, {
          symbol: 'AAPL',
          side: 'buy',
          quantity,
          price: 100,
          executed_at: `2025-01-06T15:${String(quantity).padStart(2, '0')}:00Z`,
        });
      }
      await record(user, {
        symbol: 'AAPL',
        side: 'sell',
        quantity: 20,
        price: 110,
        executed_at: '2025-02-03',
      });
      const base = await sut.listen();
      for (const path of ['lots', 'realized?year=2025', 'history?period=ALL']) {
        const plain = await rawGet(`${base}${BASE}/${path}`, user.headers);
        expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(plain.headers['transfer-encoding']).toBeUndefined();
        expect(plain.headers['content-length']).toBe(String(plain.body.length));
        expect(plain.body.toString()).toBe(
          (await sut.inject({ url: `${BASE}/${path}`, headers: user.headers })).body,
        );
        for (const [encoding, decode] of [
          ['br', brotliDecompressSync],
          ['gzip', gunzipSync],
        ] as const) {
          const compressed = await rawGet(`${base}${BASE}/${path}`, {
            ...user.headers,
            'accept-encoding': encoding,
          });
          expect([compressed.headers['content-encoding'], compressed.headers['content-length']]).toEqual([
            encoding,
            String(compressed.body.length),
          ]);
          expect(decode(compressed.body)).toEqual(plain.body);
        }
      }
    });

    it('needs a token', async () => {
      expect((await sut.inject({ url: `${BASE}/lots` })).statusCode).toBe(401);
      expect((await sut.inject({ url: `${BASE}/realized` })).statusCode).toBe(401);
    });
  });
});
