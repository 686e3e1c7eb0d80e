import type { Schemas } from '../../client';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { newYorkTime } from '../../src/common/time/new-york-time';
import { MarketService } from '../../src/modules/market/market.service';
import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { createTestApp, TestApp } from '../setup/test-app';
import { portfolioCalls } from '../support/portfolio-calls';
import { asCsv, dataOf, issuesOf, typedApi } from '../support/typed-api';

const BASE = '/api/v1/portfolio';
const TRADES_CSV = readFileSync(join(__dirname, '../fixtures/portfolio/trades.csv'), 'utf8');

/** Plain reference formulas, written independently of src/modules/portfolio/analytics. */
const reference = {
  returns: (closes: number[]) => closes.slice(1).map((close, i) => close / closes[i] - 1),
  mean: (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length,
  sampleSd(values: number[]) {
    const m = reference.mean(values);
    return Math.sqrt(values.reduce((sum, value) => sum + (value - m) ** 2, 0) / (values.length - 1));
  },
  covariance(xs: number[], ys: number[]) {
    const mx = reference.mean(xs);
    const my = reference.mean(ys);
    return xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i] - my), 0) / (xs.length - 1);
  },
};

describe('portfolio analytics: import, performance, risk, rebalance, overview', () => {
  const clock = new FakeClock();
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
  });
  afterAll(() => sut.close());

  const importCsv = (user: TestUser, csv: string) =>
    typedApi(sut, user).POST('/api/v1/portfolio/transactions/import', { body: csv, ...asCsv });
  const { read, record } = portfolioCalls(() => sut);
  const rebalance = (user: TestUser, body: Schemas['RebalanceRequestDto']) =>
    typedApi(sut, user).POST('/api/v1/portfolio/rebalance', { body });
  const ledgerSize = async (user: TestUser) =>
    (
      await sut.app
        .get(DataSource)
        .query('SELECT count(*)::int AS count FROM portfolio_transactions WHERE user_id = $1', [user.id])
    )[0].count as number;
  const closes = async (symbol: string, from: string) =>
    (await sut.app.get(MarketService).getHistory(symbol, { from })).bars.map((bar) => ({
      date: bar.date,
      close: bar.close,
    }));

  describe('CSV import', () => {
    it('records every row in file order with 201', async () => {
      const user = await registerUser(sut);
      const response = await importCsv(user, TRADES_CSV);
      expect(response.response.status).toBe(201);
      const body = dataOf(response);
      expect(body.imported).toBe(6);
      expect(body.transactions.map((row) => `${row.side} ${row.symbol}`)).toEqual([
        'buy AAPL',
        'buy JNJ',
        'buy XOM',
        'buy MSFT',
        'sell AAPL',
        'buy BRK.B',
      ]);
      // average cost (3000 + 1) / 20 = 150.05 → 5 × 180 − 1 − 750.25
      expect(body.transactions[4]).toMatchObject({ note: 'trim, after earnings', realized_pnl: 148.75 });
      expect(body.transactions[5]).toMatchObject({ executed_at: '2025-04-01T15:45:00.000Z', fees: 0 });
      expect(dataOf(await read.transactions(user, { symbol: 'brk-b' })).total).toBe(1);
      const positions = dataOf(await read.positions(user)).positions;
      expect(positions.map((position: { symbol: string }) => position.symbol).sort()).toEqual([
        'AAPL',
        'BRK.B',
        'JNJ',
        'MSFT',
        'XOM',
      ]);
    });

    it('imports a large file in one go and keeps realized P&L on every sell', async () => {
      const user = await registerUser(sut);
      // 1,500 pairs: buy 2 @ 100 then sell 1 @ 110 → each sell realizes 10, 1,500 shares remain at 100
      const lines = ['date,symbol,side,quantity,price,fees'];
      for (let i = 0; i < 1500; i += 1)
        lines.push('2025-01-06,AAPL,buy,2,100,0', '2025-01-06,AAPL,sell,1,110,0');
      const response = await importCsv(user, lines.join('\n'));
      expect(response.response.status).toBe(201);
      expect(dataOf(response).imported).toBe(3000);
      const [aapl] = dataOf(await read.positions(user)).positions;
      expect(aapl).toMatchObject({ quantity: 1500, cost_basis: 150000 });
      expect(dataOf(await read.summary(user)).realized_pnl).toBe(15000);
      const [{ count }] = await sut.app
        .get(DataSource)
        .query(
          'SELECT count(*)::int AS count FROM portfolio_transactions WHERE user_id = $1 AND realized_pnl = 10',
          [user.id],
        );
      expect(count).toBe(1500);
    });

    it('applies nothing and lists every bad row, including unknown symbols and oversells', async () => {
      const user = await registerUser(sut);
      const response = await importCsv(
        user,
        [
          'date,symbol,side,quantity,price,fees',
          '2025-01-06,AAPL,buy,10,150,0',
          '2025-01-07,NOPEX,buy,1,10,0',
          '2025-01-08,MSFT,buy,-1,abc,0',
          '2025-01-09,AAPL,sell,11,160,0',
        ].join('\n'),
      );
      expect(response.response.status).toBe(422);
      expect(response.error).toEqual({
        detail: [
          {
            loc: ['body', 1, 'symbol'],
            msg: 'Value error, Stock NOPEX not found',
            type: 'value_error',
            ctx: { error: 'Stock NOPEX not found' },
          },
          {
            loc: ['body', 2, 'quantity'],
            msg: 'Input should be greater than 0',
            type: 'greater_than',
            ctx: { gt: 0 },
          },
          {
            loc: ['body', 2, 'price'],
            msg: 'Input should be a valid number, unable to parse string as a number',
            type: 'float_parsing',
          },
        ],
      });
      expect(await ledgerSize(user)).toBe(0);

      const oversell = await importCsv(
        user,
        'date,symbol,side,quantity,price,fees\n2025-01-06,AAPL,buy,10,150,0\n2025-01-09,AAPL,sell,11,160,0\n',
      );
      expect(oversell.response.status).toBe(422);
      expect(oversell.error).toEqual({
        detail: [
          {
            loc: ['body', 1, 'quantity'],
            msg: 'Value error, Insufficient quantity of AAPL to sell',
            type: 'value_error',
            ctx: { error: 'Insufficient quantity of AAPL to sell' },
          },
        ],
      });
      expect(await ledgerSize(user)).toBe(0);
    });

    it('wants CSV text', async () => {
      const user = await registerUser(sut);
      // Raw: a JSON body where the route declares text/csv is what the typed client cannot send.
      const json = await sut.inject({
        method: 'POST',
        url: `${BASE}/transactions/import`,
        headers: user.headers,
        payload: { rows: [] },
      });
      expect(json.statusCode).toBe(422);
      expect(json.json()).toEqual({
        detail: [
          {
            loc: ['body'],
            msg: 'Input should be CSV text sent as Content-Type: text/csv',
            type: 'string_type',
          },
        ],
      });
      const header = await importCsv(user, 'when,symbol,side,quantity,price\n2025-01-06,AAPL,buy,1,1\n');
      expect(header.response.status).toBe(422);
      expect(issuesOf(header)[0].loc).toEqual(['body', 'header']);
    });
  });

  describe('summary performance', () => {
    it('is the time-weighted return of the closes, null before the first trade', async () => {
      const user = await registerUser(sut);
      const since = clock.daysAgo(200);
      const history = (await closes('AAPL', since)).filter((bar) => bar.date > since);
      const start = history[0];
      // one share bought at its close on the first trading day after `since`, nothing else: the
      // portfolio's time-weighted return is the price return from that close to the latest close
      await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 1,
        price: start.close,
        executed_at: `${start.date}T21:00:00Z`,
      });
      const summary = dataOf(await read.summary(user));
      const last = history[history.length - 1];
      expect(summary.performance.ALL).toBeCloseTo(100 * (last.close / start.close - 1), 3);
      expect(summary.performance['1Y']).toBeNull();
      // 1M: from the last close on or before the same New York day a month ago
      const now = new Date(`${newYorkTime(clock.now()).date}T00:00:00Z`);
      const lastOfPreviousMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).getUTCDate();
      const monthAgo = new Date(
        Date.UTC(
          now.getUTCFullYear(),
          now.getUTCMonth() - 1,
          Math.min(now.getUTCDate(), lastOfPreviousMonth),
        ),
      )
        .toISOString()
        .slice(0, 10);
      const base = history.filter((bar) => bar.date <= monthAgo).pop()!;
      expect(summary.performance['1M']).toBeCloseTo(100 * (last.close / base.close - 1), 3);
    });
  });

  describe('risk metrics', () => {
    it('answers an empty portfolio with nulls and a note', async () => {
      const user = await registerUser(sut);
      const response = await read.riskMetrics(user);
      expect(response.response.status).toBe(200);
      expect(dataOf(response)).toMatchObject({
        lookback_days: 252,
        benchmark: '^GSPC',
        risk_free_rate: 0.02,
        window: null,
        total_value: 0,
        volatility: null,
        beta: null,
        sharpe_ratio: null,
        max_drawdown: null,
        value_at_risk: null,
        concentration: null,
        risk_level: null,
        matches_preferences: null,
        notes: ['The portfolio has no positions, so there is nothing to measure yet.'],
      });
    });

    it('matches the reference formulas on the real replayed history of a one-stock portfolio', async () => {
      const user = await registerUser(sut);
      await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 10,
        price: 100,
        executed_at: '2025-01-06',
      });
      // today's session counts as it stands, as in the closes read below
      const response = await read.riskMetrics(user, { lookback_days: 60, include_today: true });
      expect(response.response.status).toBe(200);
      const body = dataOf(response);

      const from = clock.daysAgo(200);
      const [stock, index] = [await closes('AAPL', from), await closes('^GSPC', from)];
      const window = stock.slice(-61);
      expect(index.slice(-61).map((bar) => bar.date)).toEqual(window.map((bar) => bar.date));
      const r = reference.returns(window.map((bar) => bar.close));
      const b = reference.returns(index.slice(-61).map((bar) => bar.close));
      expect(body.window).toEqual({
        start_date: window[0].date,
        end_date: window[60].date,
        observations: 60,
      });
      expect(body.volatility).toBeCloseTo(reference.sampleSd(r) * Math.sqrt(252), 5);
      expect(body.beta).toBeCloseTo(reference.covariance(r, b) / reference.sampleSd(b) ** 2, 5);
      expect(body.sharpe_ratio).toBeCloseTo(
        ((reference.mean(r) - 0.02 / 252) / reference.sampleSd(r)) * Math.sqrt(252),
        4,
      );
      // historical VaR: the ⌈60 × 5%⌉ = 3rd worst day at 95%, the worst at 99%
      const worst = [...r].sort((x, y) => x - y);
      expect(body.value_at_risk![0]).toMatchObject({ confidence: 0.95, var: expect.closeTo(-worst[2], 5) });
      expect(body.value_at_risk![0].cvar).toBeCloseTo(-(worst[0] + worst[1] + worst[2]) / 3, 5);
      expect(body.value_at_risk![1]).toMatchObject({ confidence: 0.99, var: expect.closeTo(-worst[0], 5) });
      expect(body.value_at_risk![0].var_amount).toBeCloseTo(body.value_at_risk![0].var * body.total_value, 1);
      // The market graph's cluster view: one holding is one cluster and one bet (null until the graph is built).
      const clustered = body.concentration!.largest_cluster_weight !== null;
      expect(body.concentration).toEqual({
        herfindahl_index: 1,
        effective_holdings: 1,
        largest_weight: { symbol: 'AAPL', weight: 1 },
        largest_cluster_weight: clustered ? 1 : null,
        largest_cluster_members: clustered ? ['AAPL'] : [],
        effective_independent_bets: clustered ? 1 : null,
      });
      expect(body.correlation_matrix).toEqual({ symbols: ['AAPL'], matrix: [[1]] });
      expect(body.risk_level).toBe('aggressive');
      expect(body.matches_preferences).toBeNull();
    });

    it('compares the risk level with the preferences and validates its parameters', async () => {
      const user = await registerUser(sut);
      await importCsv(user, TRADES_CSV);
      const created = await typedApi(sut, user).POST('/api/v1/preferences', {
        body: { experience_level: 'beginner', risk_tolerance: 'conservative', watchlist: ['NVDA', 'KO'] },
      });
      expect(created.response.status).toBe(201);
      const body = dataOf(await read.riskMetrics(user));
      expect(body.risk_tolerance).toBe('conservative');
      expect(body.matches_preferences).toBe(body.risk_level === 'conservative');
      expect(body.notes[body.notes.length - 1]).toMatch(
        /risk level (matches|is above|is below) your conservative risk tolerance/,
      );
      // consistent with positions and summary
      const positions = dataOf(await read.positions(user)).positions;
      expect(body.total_value).toBe(dataOf(await read.summary(user)).total_value);
      expect(body.concentration!.largest_weight).toEqual({
        symbol: positions[0].symbol,
        weight: expect.closeTo(positions[0].weight / 100, 5),
      });
      expect(body.correlation_matrix!.symbols).toEqual(
        positions.map((position: { symbol: string }) => position.symbol),
      );
      expect(
        body.sector_concentration!.sectors.reduce((sum: number, s: { weight: number }) => sum + s.weight, 0),
      ).toBeCloseTo(1, 4);

      const short = await read.riskMetrics(user, { lookback_days: 5 });
      expect(short.response.status).toBe(422);
      expect(issuesOf(short)[0]).toMatchObject({
        loc: ['query', 'lookback_days'],
        type: 'greater_than_equal',
      });
      const unknown = await read.riskMetrics(user, { benchmark: 'NOPEX' });
      expect(unknown.response.status).toBe(404);
      expect(unknown.error).toEqual({ detail: 'Stock NOPEX not found' });
    });
  });

  describe('rebalance', () => {
    async function portfolioOfTwo() {
      const user = await registerUser(sut);
      await record(user, {
        symbol: 'AAPL',
        side: 'buy',
        quantity: 30,
        price: 100,
        executed_at: '2025-01-06',
      });
      await record(user, { symbol: 'XOM', side: 'buy', quantity: 2, price: 100, executed_at: '2025-01-06' });
      return user;
    }

    it('plans a dry run without recording anything', async () => {
      const user = await portfolioOfTwo();
      const response = await rebalance(user, {
        targets: [
          { symbol: 'AAPL', weight: 50 },
          { symbol: 'XOM', weight: 30 },
          { symbol: 'JNJ', weight: 20 },
        ],
        dry_run: true,
      });
      expect(response.response.status).toBe(200);
      const plan = dataOf(response);
      expect(plan.executed).toBe(false);
      expect(plan.transaction_ids).toEqual([]);
      expect(
        plan.trades.map((trade: { symbol: string; side: string }) => `${trade.side} ${trade.symbol}`),
      ).toEqual(['sell AAPL', 'buy JNJ', 'buy XOM']);
      for (const trade of plan.trades) {
        expect(Number.isInteger(trade.quantity)).toBe(true);
        expect(trade.value).toBeCloseTo(trade.quantity * trade.price, 2);
      }
      const value = (side: string) =>
        plan.trades
          .filter((trade: { side: string }) => trade.side === side)
          .reduce((s: number, t: { value: number }) => s + t.value, 0);
      expect(value('buy')).toBeLessThanOrEqual(value('sell') + 0.005);
      const target: Record<string, number> = { AAPL: 50, XOM: 30, JNJ: 20 };
      for (const entry of plan.after) {
        const trade = plan.trades.find((candidate) => candidate.symbol === entry.symbol)!;
        expect(Math.abs(entry.weight - target[entry.symbol])).toBeLessThanOrEqual(
          (100 * trade.price) / plan.total_value + 1e-3,
        );
      }
      expect(await ledgerSize(user)).toBe(2);
    });

    it('records the trades at the current quotes in one go and the positions follow', async () => {
      const user = await portfolioOfTwo();
      const response = await rebalance(user, {
        targets: [
          { symbol: 'AAPL', weight: 60 },
          { symbol: 'XOM', weight: 40 },
        ],
        tolerance: 1,
        cash: 500,
      });
      expect(response.response.status).toBe(200);
      const plan = dataOf(response);
      expect(plan.executed).toBe(true);
      expect(plan.transaction_ids).toHaveLength(plan.trades.length);
      const ledger = dataOf(await read.transactions(user)).transactions;
      const recorded = ledger.filter((row) => row.note === 'rebalance');
      expect(recorded).toHaveLength(plan.trades.length);
      for (const row of recorded) expect(row.executed_at).toBe(clock.now().toISOString());
      const positions = dataOf(await read.positions(user)).positions;
      for (const trade of plan.trades) {
        const before = trade.symbol === 'AAPL' ? 30 : 2;
        const position = positions.find((candidate: { symbol: string }) => candidate.symbol === trade.symbol);
        expect(position!.quantity).toBe(before + (trade.side === 'buy' ? trade.quantity : -trade.quantity));
        expect(position!.current_price).toBe(trade.price);
      }
    });

    it('spreads sector targets over the holdings of each sector', async () => {
      const user = await portfolioOfTwo();
      const plan = dataOf(
        await rebalance(user, {
          sector_targets: [
            { sector: 'technology', weight: 50 },
            { sector: 'energy', weight: 50 },
          ],
          dry_run: true,
          fractional: true,
        }),
      );
      for (const entry of plan.after) expect(entry.weight).toBeCloseTo(50, 2);
    });

    it('refuses invalid targets at the offending element', async () => {
      const user = await portfolioOfTwo();
      const sum = await rebalance(user, { targets: [{ symbol: 'AAPL', weight: 90 }] });
      expect(sum.response.status).toBe(422);
      expect(sum.error).toEqual({
        detail: [
          {
            loc: ['body', 'targets'],
            msg: 'Value error, weights must sum to 100 (± 0.01), not 90',
            type: 'value_error',
            ctx: { error: 'weights must sum to 100 (± 0.01), not 90' },
          },
        ],
      });
      const unknown = await rebalance(user, {
        targets: [
          { symbol: 'AAPL', weight: 50 },
          { symbol: 'NOPEX', weight: 50 },
        ],
      });
      expect(unknown.response.status).toBe(422);
      expect(issuesOf(unknown)).toEqual([
        {
          loc: ['body', 'targets', 1, 'symbol'],
          msg: 'Value error, Stock NOPEX not found',
          type: 'value_error',
          ctx: { error: 'Stock NOPEX not found' },
        },
      ]);
      const range = await rebalance(user, { targets: [{ symbol: 'AAPL', weight: 150 }] });
      expect(issuesOf(range)[0]).toMatchObject({
        loc: ['body', 'targets', 0, 'weight'],
        type: 'less_than_equal',
      });
      const both = await rebalance(user, {
        targets: [{ symbol: 'AAPL', weight: 100 }],
        sector_targets: [{ sector: 'technology', weight: 100 }],
      });
      expect(issuesOf(both)).toEqual([
        { loc: ['body'], msg: 'Value error, give either targets or sector_targets', type: 'value_error' },
      ]);
      const emptySector = await rebalance(user, {
        sector_targets: [
          { sector: 'technology', weight: 70 },
          { sector: 'utilities', weight: 30 },
        ],
      });
      expect(emptySector.response.status).toBe(422);
      expect(issuesOf(emptySector)[0].loc).toEqual(['body', 'sector_targets', 1, 'sector']);
      // Raw: a null the body's type does not allow.
      const nullDryRun = await sut.inject({
        method: 'POST',
        url: `${BASE}/rebalance`,
        headers: user.headers,
        payload: {
          targets: [
            { symbol: 'AAPL', weight: 60 },
            { symbol: 'XOM', weight: 40 },
          ],
          dry_run: null,
        },
      });
      expect(nullDryRun.statusCode).toBe(422);
      expect(nullDryRun.json().detail).toEqual([
        { loc: ['body', 'dry_run'], msg: 'Input should be a valid boolean', type: 'bool_type' },
      ]);
      expect(await ledgerSize(user)).toBe(2);
    });
  });

  describe('overview', () => {
    it('brings summary, top positions, watchlist quotes and a risk snapshot in one response', async () => {
      const user = await registerUser(sut);
      await importCsv(user, TRADES_CSV);
      await typedApi(sut, user).POST('/api/v1/preferences', {
        body: { experience_level: 'advanced', watchlist: ['NVDA', 'KO'] },
      });
      const response = await read.overview(user);
      expect(response.response.status).toBe(200);
      const overview = dataOf(response);
      expect(overview.summary).toEqual(dataOf(await read.summary(user)));
      expect(overview.top_positions).toEqual(dataOf(await read.positions(user)).positions);
      const nvda = dataOf(
        await typedApi(sut, user).GET('/api/v1/market/stock/{symbol}', {
          params: { path: { symbol: 'NVDA' } },
        }),
      );
      expect(overview.watchlist).toEqual([
        {
          symbol: 'NVDA',
          name: nvda.name,
          price: nvda.price,
          change: nvda.change,
          changePercent: nvda.changePercent,
        },
        expect.objectContaining({ symbol: 'KO' }),
      ]);
      const watchedOrHeld = ['AAPL', 'JNJ', 'XOM', 'MSFT', 'BRK.B', 'NVDA', 'KO'];
      expect(overview.news.length).toBeGreaterThan(0);
      expect(overview.news.length).toBeLessThanOrEqual(10);
      for (const item of overview.news) {
        expect(item).toEqual({
          symbol: expect.any(String),
          title: expect.any(String),
          description: expect.any(String),
          url: expect.any(String),
          source: expect.any(String),
          publishedAt: expect.any(String),
          sentiment: expect.stringMatching(/^(positive|negative|neutral)$/),
          sentimentScore: expect.any(Number),
        });
        expect(watchedOrHeld).toContain(item.symbol);
      }
      const published = overview.news.map((item: { publishedAt: string }) => item.publishedAt);
      expect([...published].sort().reverse()).toEqual(published);
      expect(new Set(overview.news.map((item: { url: string }) => item.url)).size).toBe(overview.news.length);
      expect(overview.notes).toEqual([]);
      const risk = dataOf(await read.riskMetrics(user));
      expect(overview.risk).toEqual({
        volatility: risk.volatility,
        max_drawdown: risk.max_drawdown!.max_drawdown,
        risk_level: risk.risk_level,
        matches_preferences: risk.matches_preferences,
      });
    });

    it('is empty but complete for a new user', async () => {
      const user = await registerUser(sut);
      const overview = dataOf(await read.overview(user));
      expect(overview).toMatchObject({
        top_positions: [],
        watchlist: [],
        news: [],
        notes: [],
        risk: { volatility: null, max_drawdown: null, risk_level: null, matches_preferences: null },
      });
      expect(overview.summary.positions_count).toBe(0);
    });
  });
});
