import { setTimeout as sleep } from 'node:timers/promises';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';

/** The bounds issue 29 sets for every attack below. */
const LIVEZ_WITHIN_MS = 250;
const ANSWER_WITHIN_MS = 1_000;
const ANSWER_BELOW_BYTES = 64 * 1024;
/** A request that takes longer is cut, so a regression fails the test instead of stalling the suite. */
const GIVE_UP_AFTER_MS = 8_000;

interface AttackOutcome {
  status: number;
  body: string;
  elapsedMs: number;
  /** The slowest of the GET /livez probes sent while the attack was in flight. */
  slowestLivezMs: number;
}

/**
 * Sends one hostile request over a real socket while a second client keeps probing GET /livez,
 * and reports how long the attack's answer took, its size, and the slowest probe.
 */
async function underAttack(url: string, init: RequestInit): Promise<AttackOutcome> {
  const first = await attackOnce(url, init);
  if (first.elapsedMs < ANSWER_WITHIN_MS && first.slowestLivezMs < LIVEZ_WITHIN_MS) return first;
  // A machine shared with other test workers can pause this process past the bounds; a regression
  // (the stalls issue 29 measured lasted 3-30 s) misses them on the second try too. Every request
  // sent here is refused, so sending it again stores nothing.
  const second = await attackOnce(url, init);
  return second.elapsedMs + second.slowestLivezMs < first.elapsedMs + first.slowestLivezMs ? second : first;
}

async function attackOnce(url: string, init: RequestInit): Promise<AttackOutcome> {
  const origin = new URL(url).origin;
  await fetch(`${origin}/livez`).then((response) => response.text());
  let attacking = true;
  const probeTimes: number[] = [];
  const probing = (async () => {
    while (attacking) {
      const started = performance.now();
      await fetch(`${origin}/livez`, { signal: AbortSignal.timeout(GIVE_UP_AFTER_MS) }).then((response) =>
        response.text(),
      );
      probeTimes.push(performance.now() - started);
      await sleep(10);
    }
  })();
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(GIVE_UP_AFTER_MS) });
    const body = await response.text();
    return {
      status: response.status,
      body,
      elapsedMs: performance.now() - started,
      slowestLivezMs: Math.max(0, ...probeTimes),
    };
  } finally {
    attacking = false;
    await probing;
  }
}

function expectContained(outcome: AttackOutcome): void {
  expect(outcome.elapsedMs).toBeLessThan(ANSWER_WITHIN_MS);
  expect(Buffer.byteLength(outcome.body)).toBeLessThan(ANSWER_BELOW_BYTES);
  expect(outcome.slowestLivezMs).toBeLessThan(LIVEZ_WITHIN_MS);
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** `count` distinct short keys (base 36), each with the value 0, as JSON object text. */
function objectWithKeys(count: number): string {
  const members: string[] = [];
  for (let key = 0; key < count; key += 1) members.push(`"${key.toString(36)}":0`);
  return `{${members.join(',')}}`;
}

const detailOf = (outcome: AttackOutcome) => (JSON.parse(outcome.body) as { detail: unknown }).detail;

describe('one request cannot stall the service (issue 29)', () => {
  let sut: TestApp;
  let base: string;
  let user: TestUser;

  beforeAll(async () => {
    sut = await createTestApp();
    base = await sut.listen();
    user = await registerUser(sut);
  });
  afterAll(() => sut.close());

  const api = (path: string) => `${base}/api/v1${path}`;
  const authorized = (init: RequestInit): RequestInit => ({
    ...init,
    headers: { ...(init.headers as Record<string, string>), ...user.headers },
  });

  describe('the body budget, before any transformer runs', () => {
    it('refuses a 1 MiB JSON object of 120,000 unknown keys to /auth/refresh at once', async () => {
      const body = objectWithKeys(120_000);
      expect(body.length).toBeLessThan(1024 * 1024);
      const outcome = await underAttack(api('/auth/refresh'), json(body));
      expect(outcome.status).toBe(422);
      expect(detailOf(outcome)).toEqual([
        {
          loc: ['body'],
          msg: 'JSON decode error',
          type: 'json_invalid',
          ctx: { error: 'More than 64 keys in one object' },
        },
      ]);
      expectContained(outcome);
    });

    it('refuses the same shape on /users/register', async () => {
      const outcome = await underAttack(api('/users/register'), json(objectWithKeys(120_000)));
      expect(outcome.status).toBe(422);
      expectContained(outcome);
    });

    it('refuses a form body of 120,000 fields to /auth/refresh and /auth/login at once', async () => {
      const fields = Array.from({ length: 120_000 }, (_, key) => `${key.toString(36)}=`).join('&');
      for (const path of ['/auth/refresh', '/auth/login']) {
        const outcome = await underAttack(api(path), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: fields,
        });
        expect(outcome.status).toBe(422);
        expect(detailOf(outcome)).toEqual([
          {
            loc: ['body'],
            msg: 'Value error, more than 64 fields in the form',
            type: 'value_error',
            ctx: { error: 'more than 64 fields in the form' },
          },
        ]);
        expectContained(outcome);
      }
    });

    it('refuses a query string of more than 64 parameters', async () => {
      const query = Array.from({ length: 1_500 }, (_, key) => `${key.toString(36)}=1`).join('&');
      const outcome = await underAttack(api(`/portfolio/transactions?${query}`), {
        headers: user.headers,
      });
      expect(outcome.status).toBe(422);
      expect(detailOf(outcome)).toEqual([
        {
          loc: ['query'],
          msg: 'Value error, more than 64 parameters in the query',
          type: 'value_error',
          ctx: { error: 'more than 64 parameters in the query' },
        },
      ]);
      expectContained(outcome);
    });

    it('refuses a body of more than 10,000 values in all, however they are spread', async () => {
      const spread = { watchlist: Array.from({ length: 60_000 }, () => 'AAAA') };
      const outcome = await underAttack(api('/preferences/'), authorized({ ...json(spread), method: 'PUT' }));
      expect(outcome.status).toBe(422);
      expect(detailOf(outcome)).toEqual([
        {
          loc: ['body'],
          msg: 'JSON decode error',
          type: 'json_invalid',
          ctx: { error: 'More than 10000 values in the body' },
        },
      ]);
      expectContained(outcome);
    });
  });

  describe('list fields: the size cap first, at most 50 issues in a 422', () => {
    it('answers a watchlist far over its cap with the cap alone', async () => {
      const watchlist = Array.from({ length: 9_000 }, () => 'AAPL');
      const outcome = await underAttack(
        api('/preferences/'),
        authorized({ ...json({ watchlist }), method: 'PUT' }),
      );
      expect(outcome.status).toBe(422);
      expect(detailOf(outcome)).toEqual([
        {
          loc: ['body', 'watchlist'],
          msg: 'List should have at most 50 items after validation, not 9000',
          type: 'too_long',
          ctx: { field_type: 'List', max_length: 50, actual_length: 9000 },
        },
      ]);
      expectContained(outcome);
    });

    it.each([
      ['market_sectors', 11],
      ['investment_types', 8],
    ])('caps %s at its number of choices, checked before the entries', async (field, choices) => {
      const outcome = await underAttack(
        api('/preferences/'),
        authorized({
          ...json({ [field]: Array.from({ length: 9_000 }, (_, n) => `bad${n}`) }),
          method: 'PUT',
        }),
      );
      expect(outcome.status).toBe(422);
      expect(detailOf(outcome)).toEqual([
        {
          loc: ['body', field],
          msg: `List should have at most ${choices} items after validation, not 9000`,
          type: 'too_long',
          ctx: { field_type: 'List', max_length: choices, actual_length: 9000 },
        },
      ]);
      expectContained(outcome);
    });

    it("caps the wizard's information_sources", async () => {
      const sources = Array.from({ length: 3_000 }, () => ({ type: 'bad', priority: 0 }));
      const outcome = await underAttack(
        api('/preferences/wizard'),
        authorized(json({ step_data: { information: { information_sources: sources } } })),
      );
      expect(outcome.status).toBe(422);
      expect(detailOf(outcome)).toEqual([
        {
          loc: ['body', 'step_data', 'information', 'information_sources'],
          msg: 'List should have at most 6 items after validation, not 3000',
          type: 'too_long',
          ctx: { field_type: 'List', max_length: 6, actual_length: 3000 },
        },
      ]);
      expectContained(outcome);
    });

    it('answers 3,000 invalid rebalance targets and 3,000 invalid lots with their caps alone', async () => {
      const targets = Array.from({ length: 3_000 }, () => ({ symbol: '!', weight: -1 }));
      const rebalance = await underAttack(api('/portfolio/rebalance'), authorized(json({ targets })));
      expect(rebalance.status).toBe(422);
      expect(detailOf(rebalance)).toEqual([
        {
          loc: ['body', 'targets'],
          msg: 'List should have at most 100 items after validation, not 3000',
          type: 'too_long',
          ctx: { field_type: 'List', max_length: 100, actual_length: 3000 },
        },
      ]);
      expectContained(rebalance);

      const lots = Array.from({ length: 3_000 }, () => ({ lot_id: 0, quantity: -1 }));
      const sell = await underAttack(
        api('/portfolio/transactions'),
        authorized(
          json({
            symbol: 'AAPL',
            side: 'sell',
            quantity: 1,
            price: 1,
            executed_at: '2025-01-06T15:30:00Z',
            lots,
          }),
        ),
      );
      expect(sell.status).toBe(422);
      expect(
        (detailOf(sell) as { loc: unknown[]; type: string }[]).map((issue) => [issue.loc, issue.type]),
      ).toEqual([[['body', 'lots'], 'too_long']]);
      expectContained(sell);
    });

    it('answers a sell naming 200 invalid lots with 50 issues and a count of the rest', async () => {
      const lots = Array.from({ length: 200 }, () => ({ lot_id: 0, quantity: -1 }));
      const sell = {
        symbol: 'AAPL',
        side: 'sell',
        quantity: 1,
        price: 1,
        executed_at: '2025-01-06T15:30:00Z',
        lots,
      };
      const outcome = await underAttack(api('/portfolio/transactions'), authorized(json(sell)));
      expect(outcome.status).toBe(422);
      const issues = detailOf(outcome) as { loc: unknown[]; type: string; ctx?: object }[];
      expect(issues).toHaveLength(51);
      expect(issues[0].loc).toEqual(['body', 'lots', 0, 'lot_id']);
      expect(issues[50]).toMatchObject({ type: 'too_many_errors', ctx: { listed: 50, omitted: 350 } });
      expectContained(outcome);
    });

    it('lists at most 50 issues of a CSV with 500 bad rows, then how many were left out', async () => {
      const rows = Array.from({ length: 500 }, () => 'not-a-date,!,hold,-1,-1,-1');
      const outcome = await underAttack(api('/portfolio/transactions/import'), {
        method: 'POST',
        headers: { 'content-type': 'text/csv', ...user.headers },
        body: `date,symbol,side,quantity,price,fees\n${rows.join('\n')}\n`,
      });
      expect(outcome.status).toBe(422);
      const issues = detailOf(outcome) as { loc: unknown[]; msg: string; type: string; ctx?: object }[];
      expect(issues).toHaveLength(51);
      expect(issues[0].loc).toEqual(['body', 0, 'date']);
      expect(issues[50]).toEqual({
        loc: ['body'],
        msg: '2950 more issues not listed',
        type: 'too_many_errors',
        ctx: { listed: 50, omitted: 2_950 },
      });
      expectContained(outcome);
    });
  });

  describe('CSV header', () => {
    it('refuses a header of 100,000 columns at once, naming a few unknown ones', async () => {
      const header = Array.from({ length: 100_000 }, (_, n) => `c${n}`).join(',');
      const outcome = await underAttack(api('/portfolio/transactions/import'), {
        method: 'POST',
        headers: { 'content-type': 'text/csv', ...user.headers },
        body: `${header}\n2025-01-06,AAPL,buy,1,1,0\n`,
      });
      expect(outcome.status).toBe(422);
      expect(detailOf(outcome)).toEqual([
        {
          loc: ['body', 'header'],
          msg: 'Value error, the header has 100000 columns, at most 32',
          type: 'value_error',
          ctx: { error: 'the header has 100000 columns, at most 32' },
        },
      ]);
      expectContained(outcome);
    });

    it('names at most five unknown columns of a header within the cap', async () => {
      const unknown = Array.from({ length: 20 }, (_, n) => `extra${n}`);
      const outcome = await underAttack(api('/portfolio/transactions/import'), {
        method: 'POST',
        headers: { 'content-type': 'text/csv', ...user.headers },
        body: `date,symbol,side,quantity,price,fees,${unknown.join(',')}\n`,
      });
      expect(outcome.status).toBe(422);
      expect(detailOf(outcome)).toEqual([
        {
          loc: ['body', 'header'],
          msg:
            'Value error, the header must be date,symbol,side,quantity,price,fees (fees and note optional): ' +
            'unknown extra0, extra1, extra2, extra3, extra4 and 15 more',
          type: 'value_error',
        },
      ]);
      expectContained(outcome);
    });
  });
});
