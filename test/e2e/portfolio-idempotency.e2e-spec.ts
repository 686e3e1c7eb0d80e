import { DataSource } from 'typeorm';
import { login, registerUser, TestUser } from '../factories/users.factory';
import { allAtOnce, HttpAnswer, httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';
import { FakeClock } from '../fakes/clock';

const CONCURRENT = 8;
const DAY_MS = 24 * 60 * 60 * 1000;

const keyIssue = (issue: object) => ({ detail: [{ loc: ['header', 'Idempotency-Key'], ...issue }] });
const REUSED = keyIssue({
  msg: 'Value error, this Idempotency-Key was already used for a different request',
  type: 'value_error',
  ctx: { error: 'this Idempotency-Key was already used for a different request' },
});

const buyAapl = { symbol: 'AAPL', side: 'buy', quantity: 10, price: 100, executed_at: '2025-01-06' };
const csv =
  'date,symbol,side,quantity,price,fees\n2025-02-03,XOM,buy,1,100,0\n2025-02-04,AAPL,sell,3,120,0\n';
const rebalanceTo7030 = {
  targets: [
    { symbol: 'AAPL', weight: 70 },
    { symbol: 'XOM', weight: 30 },
  ],
  tolerance: 1,
};

describe('Idempotency-Key on portfolio writes (listening server)', () => {
  const clock = new FakeClock();
  let sut: TestApp;
  let base: string;
  let keySequence = 0;
  const newKey = () => `key-${Date.now()}-${(keySequence += 1)}`;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
    base = await sut.listen();
  });
  afterAll(() => sut.close());

  const post = (
    user: TestUser,
    path: string,
    body: object | string,
    key?: string,
    headers: Record<string, string> = {},
    origin = base,
  ) =>
    httpCall(`${origin}/api/v1/portfolio/${path}`, {
      method: 'POST',
      headers: { ...user.headers, ...(key === undefined ? {} : { 'idempotency-key': key }), ...headers },
      body,
    });
  const importCsv = (user: TestUser, text: string, key?: string) =>
    post(user, 'transactions/import', text, key, { 'content-type': 'text/csv' });
  const ledger = async (user: TestUser) =>
    (
      (await httpCall(`${base}/api/v1/portfolio/transactions?limit=1000`, { headers: user.headers }))
        .body as { transactions: { id: number; symbol: string; side: string; note: string | null }[] }
    ).transactions;
  const storedKeys = (userId: number): Promise<{ key: string }[]> =>
    sut.app.get(DataSource).query('SELECT key FROM idempotency_keys WHERE user_id = $1', [userId]);
  const expectAllSame = (answers: HttpAnswer[], status: number) => {
    for (const answer of answers) {
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual(answers[0].body);
    }
  };

  describe('POST /portfolio/transactions', () => {
    it('replays the first answer to a retry with the same key and body, without recording twice', async () => {
      const user = await registerUser(sut);
      const key = newKey();
      const first = await post(user, 'transactions', buyAapl, key);
      expect(first.status).toBe(201);

      const retry = await post(user, 'transactions', buyAapl, key);
      // The same request with its keys in another order and other whitespace.
      const reordered = await post(
        user,
        'transactions',
        '{ "price": 100, "executed_at": "2025-01-06",\n  "quantity": 10, "side": "buy", "symbol": "AAPL" }',
        key,
        { 'content-type': 'application/json' },
      );

      expect(retry).toMatchObject({ status: 201, body: first.body });
      expect(reordered).toMatchObject({ status: 201, body: first.body });
      expect(await ledger(user)).toHaveLength(1);
    });

    it('answers 422 to the same key with another body or on another route, and records nothing', async () => {
      const user = await registerUser(sut);
      const key = newKey();
      expect((await post(user, 'transactions', buyAapl, key)).status).toBe(201);

      const otherBody = await post(user, 'transactions', { ...buyAapl, quantity: 11 }, key);
      const otherRoute = await importCsv(user, csv, key);

      expect(otherBody).toMatchObject({ status: 422, body: REUSED });
      expect(otherRoute).toMatchObject({ status: 422, body: REUSED });
      expect(await ledger(user)).toHaveLength(1);
    });

    it('keeps keys per user: another user’s same key is a new request', async () => {
      const [alice, bob] = [await registerUser(sut), await registerUser(sut)];
      const key = newKey();
      const forAlice = await post(alice, 'transactions', buyAapl, key);
      const forBob = await post(bob, 'transactions', { ...buyAapl, quantity: 5 }, key);

      expect(forAlice.status).toBe(201);
      expect(forBob.status).toBe(201);
      expect(forBob.body).toMatchObject({ quantity: 5 });
      expect(await ledger(bob)).toHaveLength(1);
    });

    it('stores nothing for a request that fails validation or a domain check: a retry executes', async () => {
      const user = await registerUser(sut);
      const key = newKey();
      const sell = { ...buyAapl, side: 'sell', executed_at: '2025-02-03' };

      const invalid = await post(user, 'transactions', { ...buyAapl, quantity: -1 }, key);
      const oversold = await post(user, 'transactions', sell, key);
      expect(invalid.status).toBe(422);
      expect(oversold).toMatchObject({
        status: 400,
        body: { detail: 'Insufficient quantity of AAPL to sell' },
      });
      expect(await storedKeys(user.id)).toEqual([]);

      expect((await post(user, 'transactions', buyAapl)).status).toBe(201);
      const retried = await post(user, 'transactions', sell, key);
      expect(retried.status).toBe(201);
      expect(await post(user, 'transactions', sell, key)).toMatchObject({ status: 201, body: retried.body });
      expect(await ledger(user)).toHaveLength(2);
    });

    it('executes concurrent requests with one key once, and answers all of them alike', async () => {
      const user = await registerUser(sut);
      const key = newKey();

      const answers = await allAtOnce(
        Array.from({ length: CONCURRENT }, () => () => post(user, 'transactions', buyAapl, key)),
      );

      expectAllSame(answers, 201);
      expect(await ledger(user)).toHaveLength(1);
    });

    it('rejects an invalid key with 422 at ["header", "Idempotency-Key"] and records nothing', async () => {
      const user = await registerUser(sut);
      const cases: [string, object][] = [
        [
          '',
          {
            msg: 'String should have at least 1 character',
            type: 'string_too_short',
            ctx: { min_length: 1 },
          },
        ],
        [
          'k'.repeat(256),
          {
            msg: 'String should have at most 255 characters',
            type: 'string_too_long',
            ctx: { max_length: 255 },
          },
        ],
        [
          'caf\u00e9',
          {
            msg: "String should match pattern '^[\\x20-\\x7E]+$'",
            type: 'string_pattern_mismatch',
            ctx: { pattern: '^[\\x20-\\x7E]+$' },
          },
        ],
      ];
      for (const [key, issue] of cases) {
        const response = await post(user, 'transactions', buyAapl, key);
        expect(response).toMatchObject({ status: 422, body: keyIssue(issue) });
      }
      expect((await post(user, 'transactions', buyAapl, 'k'.repeat(255))).status).toBe(201);
      expect((await post(user, 'transactions', buyAapl, ' !~ printable ASCII ~! ')).status).toBe(201);
      expect(await ledger(user)).toHaveLength(2);
    });

    it('forgets a key after 24 hours: the same request then executes again, and expired keys are purged', async () => {
      const user = await registerUser(sut);
      const key = newKey();
      const first = await post(user, 'transactions', buyAapl, key);
      clock.advance(DAY_MS - 1000);
      expect(await post(user, 'transactions', buyAapl, key)).toMatchObject({ status: 201, body: first.body });

      clock.advance(1001);
      const fresh = { ...user, ...(await login(sut, user.email, user.password)) };
      const later = await post(fresh, 'transactions', buyAapl, key);

      expect(later.status).toBe(201);
      expect((later.body as { id: number }).id).not.toBe((first.body as { id: number }).id);
      expect(await ledger(fresh)).toHaveLength(2);
      expect(await storedKeys(user.id)).toEqual([{ key }]);

      const expiredKey = newKey();
      await post(fresh, 'transactions', buyAapl, expiredKey);
      clock.advance(DAY_MS + 1);
      const other = await registerUser(sut);
      await post(other, 'transactions', buyAapl, newKey());
      expect(await storedKeys(user.id)).toEqual([]);
    });
  });

  describe('POST /portfolio/transactions/import', () => {
    it('replays a retried import, rejects another file under the key, and imports once under concurrency', async () => {
      const user = await registerUser(sut);
      await post(user, 'transactions', buyAapl);
      const key = newKey();

      const answers = await allAtOnce(
        Array.from({ length: CONCURRENT }, () => () => importCsv(user, csv, key)),
      );
      expectAllSame(answers, 201);
      expect(answers[0].body).toMatchObject({ imported: 2 });
      expect(await importCsv(user, csv, key)).toMatchObject({ status: 201, body: answers[0].body });

      const otherFile = await importCsv(user, csv.replace('XOM,buy,1', 'XOM,buy,2'), key);
      expect(otherFile).toMatchObject({ status: 422, body: REUSED });
      expect(await ledger(user)).toHaveLength(3);
    });
  });

  describe('POST /portfolio/rebalance', () => {
    it('replays a retried rebalance and executes concurrent ones under one key once', async () => {
      const user = await registerUser(sut);
      await post(user, 'transactions', { ...buyAapl, quantity: 100 });
      await post(user, 'transactions', { ...buyAapl, symbol: 'XOM', quantity: 400 });
      const key = newKey();

      const answers = await allAtOnce(
        Array.from({ length: CONCURRENT }, () => () => post(user, 'rebalance', rebalanceTo7030, key)),
      );
      expectAllSame(answers, 200);
      const executed = answers[0].body as { trades: unknown[]; transaction_ids: number[] };
      expect(executed.trades.length).toBeGreaterThan(0);
      expect(executed.transaction_ids).toHaveLength(executed.trades.length);
      expect(await post(user, 'rebalance', rebalanceTo7030, key)).toMatchObject({
        status: 200,
        body: executed,
      });

      const otherTargets = await post(user, 'rebalance', { ...rebalanceTo7030, tolerance: 2 }, key);
      expect(otherTargets).toMatchObject({ status: 422, body: REUSED });
      const recorded = (await ledger(user)).filter((row) => row.note === 'rebalance');
      expect(recorded.map((row) => row.id).sort()).toEqual([...executed.transaction_ids].sort());
    });
  });

  it('declares the optional header on the three writes in the OpenAPI document', async () => {
    const document = (await httpCall(`${base}/openapi.json`)).body as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string; required: boolean }[] }>
      >;
    };
    for (const path of [
      '/api/v1/portfolio/transactions',
      '/api/v1/portfolio/transactions/import',
      '/api/v1/portfolio/rebalance',
    ]) {
      expect(document.paths[path].post.parameters).toContainEqual(
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
      );
    }
  });
});

// Two app instances cannot open one embedded data directory; on PostgreSQL they share the database.
const onPostgres = process.env.TEST_DATABASE_KIND === 'postgres' ? describe : describe.skip;

onPostgres('Idempotency-Key across two app instances sharing one database', () => {
  let first: TestApp;
  let second: TestApp;
  let origins: string[];

  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ database: first.database });
    origins = [await first.listen(), await second.listen()];
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('executes a key once whichever instance gets the request or its retries', async () => {
    const user = await registerUser(first);
    // Each instance's first quote loads the offline price set: a cold cost this test does not time.
    for (const origin of origins) {
      expect((await httpCall(`${origin}/api/v1/market/stock/AAPL`, { headers: user.headers })).status).toBe(
        200,
      );
    }
    const key = `two-instances-${Date.now()}`;
    const call = (index: number) =>
      httpCall(`${origins[index % 2]}/api/v1/portfolio/transactions`, {
        method: 'POST',
        headers: { ...user.headers, 'idempotency-key': key },
        body: buyAapl,
      });

    const answers = await allAtOnce(Array.from({ length: CONCURRENT }, (_, index) => () => call(index)));
    const retry = await call(1);

    for (const answer of [...answers, retry])
      expect(answer).toMatchObject({ status: 201, body: answers[0].body });
    const rows = await first.app
      .get(DataSource)
      .query('SELECT count(*)::int AS count FROM portfolio_transactions WHERE user_id = $1', [user.id]);
    expect(rows).toEqual([{ count: 1 }]);
  });
});
