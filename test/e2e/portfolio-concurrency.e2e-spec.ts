import { registerUser, TestUser } from '../factories/users.factory';
import { FakeClock } from '../fakes/clock';
import { allAtOnce, HttpAnswer, httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';

const CONCURRENT = 8;

interface Position {
  symbol: string;
  quantity: number;
  weight: number;
}

interface RebalanceAnswer {
  trades: { symbol: string; side: string; quantity: number }[];
  executed: boolean;
  transaction_ids: number[];
}

/** Writes of one user racing each other over real sockets: the ledger lock must order them. */
describe('portfolio writes under concurrency (listening server)', () => {
  let sut: TestApp;
  let base: string;

  beforeAll(async () => {
    const clock = new FakeClock();
    sut = await createTestApp({ clock });
    base = `${await sut.listen()}/api/v1/portfolio`;
  });
  afterAll(() => sut.close());

  const post = (user: TestUser, path: string, body: object | string, headers: Record<string, string> = {}) =>
    httpCall(`${base}/${path}`, { method: 'POST', headers: { ...user.headers, ...headers }, body });
  const buy = async (user: TestUser, symbol: string, quantity: number) => {
    const response = await post(user, 'transactions', {
      symbol,
      side: 'buy',
      quantity,
      price: 100,
      executed_at: '2025-01-06',
    });
    expect(response.status).toBe(201);
  };
  const positions = async (user: TestUser) =>
    ((await httpCall(`${base}/positions`, { headers: user.headers })).body as { positions: Position[] })
      .positions;
  const ledger = async (user: TestUser) =>
    (
      (await httpCall(`${base}/transactions?limit=1000`, { headers: user.headers })).body as {
        transactions: { symbol: string; side: string; quantity: number; note: string | null }[];
      }
    ).transactions;
  const statuses = (answers: HttpAnswer[]) => answers.map((answer) => answer.status).sort();

  it('executes concurrent rebalances toward one target once: the later ones see the first one’s trades', async () => {
    const user = await registerUser(sut);
    await buy(user, 'AAPL', 100);
    await buy(user, 'XOM', 400);
    const request = {
      targets: [
        { symbol: 'AAPL', weight: 70 },
        { symbol: 'XOM', weight: 30 },
      ],
      tolerance: 1,
    };
    const preview = (await post(user, 'rebalance', { ...request, dry_run: true })).body as RebalanceAnswer;
    expect(preview.trades.length).toBeGreaterThan(0);

    const answers = await allAtOnce(
      Array.from({ length: CONCURRENT }, () => () => post(user, 'rebalance', request)),
    );

    expect(statuses(answers)).toEqual(Array(CONCURRENT).fill(200));
    const bodies = answers.map((answer) => answer.body as RebalanceAnswer);
    expect(bodies.every((body) => body.executed)).toBe(true);
    const executing = bodies.filter((body) => body.transaction_ids.length > 0);
    expect(executing).toHaveLength(1);
    expect(executing[0].trades).toEqual(preview.trades);
    expect(bodies.flatMap((body) => body.transaction_ids)).toHaveLength(preview.trades.length);
    const recorded = (await ledger(user)).filter((row) => row.note === 'rebalance');
    expect(recorded).toHaveLength(preview.trades.length);
    const weights = Object.fromEntries((await positions(user)).map((p) => [p.symbol, p.weight]));
    expect(Math.abs(weights.AAPL - 70)).toBeLessThanOrEqual(1);
    expect(Math.abs(weights.XOM - 30)).toBeLessThanOrEqual(1);
  });

  it('never oversells: of concurrent sells only those the position covers are recorded', async () => {
    const user = await registerUser(sut);
    await buy(user, 'AAPL', 10);
    const sell = { symbol: 'AAPL', side: 'sell', quantity: 3, price: 120, executed_at: '2025-02-03' };

    const answers = await allAtOnce(
      Array.from({ length: CONCURRENT }, () => () => post(user, 'transactions', sell)),
    );

    expect(statuses(answers)).toEqual([...Array(3).fill(201), ...Array(CONCURRENT - 3).fill(400)]);
    for (const answer of answers.filter((candidate) => candidate.status === 400)) {
      expect(answer.body).toEqual({ detail: 'Insufficient quantity of AAPL to sell' });
    }
    expect(await positions(user)).toEqual([expect.objectContaining({ symbol: 'AAPL', quantity: 1 })]);
    expect((await ledger(user)).filter((row) => row.side === 'sell')).toHaveLength(3);
  });

  it('imports concurrent CSV files all or nothing each, in some order, never overselling', async () => {
    const user = await registerUser(sut);
    await buy(user, 'AAPL', 10);
    const csv =
      'date,symbol,side,quantity,price,fees\n2025-02-03,XOM,buy,1,100,0\n2025-02-04,AAPL,sell,3,120,0\n';
    const importing = 6;

    const answers = await allAtOnce(
      Array.from(
        { length: importing },
        () => () => post(user, 'transactions/import', csv, { 'content-type': 'text/csv' }),
      ),
    );

    expect(statuses(answers)).toEqual([...Array(3).fill(201), ...Array(importing - 3).fill(422)]);
    for (const answer of answers) {
      if (answer.status === 201) {
        expect(answer.body).toMatchObject({ imported: 2 });
        continue;
      }
      const error = 'Insufficient quantity of AAPL to sell';
      expect(answer.body).toEqual({
        detail: [
          { loc: ['body', 1, 'quantity'], msg: `Value error, ${error}`, type: 'value_error', ctx: { error } },
        ],
      });
    }
    const held = Object.fromEntries((await positions(user)).map((p) => [p.symbol, p.quantity]));
    expect(held).toEqual({ AAPL: 1, XOM: 3 });
    expect(await ledger(user)).toHaveLength(1 + 3 * 2);
  });
});

describe('concurrent writes of a user on a small connection pool (listening server)', () => {
  let sut: TestApp;
  let base: string;

  beforeAll(async () => {
    sut = await createTestApp({
      clock: new FakeClock(),
      env: { DB_POOL_SIZE: '2', DB_ACQUIRE_TIMEOUT_MS: '1000' },
    });
    base = `${await sut.listen()}/api/v1/portfolio`;
  });
  afterAll(() => sut.close());

  it('all commit: a change holding the ledger lock never waits for another pool connection', async () => {
    const user = await registerUser(sut);
    const answers = await allAtOnce(
      Array.from(
        { length: 6 },
        () => () =>
          httpCall(`${base}/transactions`, {
            method: 'POST',
            headers: user.headers,
            body: { symbol: 'AAPL', side: 'buy', quantity: 1, price: 100, executed_at: '2025-01-06' },
          }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    const stored = await httpCall(`${base}/transactions`, { headers: user.headers });
    expect((stored.body as { total: number }).total).toBe(6);
  });
});
