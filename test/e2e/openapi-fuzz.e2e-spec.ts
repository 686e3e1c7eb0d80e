import fc from 'fast-check';
import { createSuperuser, login, registerUser, TestUser } from '../factories/users.factory';
import { Operation, operationsOf } from '../fuzz/openapi-operations';
import { FuzzRequest, requestArbitrary, RequestContext } from '../fuzz/request-arbitraries';
import { problemsWith } from '../fuzz/response-checks';
import { createTestApp, InjectOptions, InjectResponse, TestApp } from '../setup/test-app';

// Property-based fuzzing of every operation in the service's own OpenAPI document (issue 9,
// part 4). Each operation gets FUZZ_RUNS requests mixing valid and hostile values in every path,
// query, header and body field. Every answer must be below 500, every 4xx in the spec's error
// shape, no body may show stack traces or SQL, and no data may change where it must not.
//
// Who sends what: GETs that only read run as `owner`, whose data must be the same after the whole
// run; operations that write run as `actor`, whose data must be unchanged after every refused
// (4xx) request; admin operations run as a superuser and never target those users; logout runs
// on a session of its own, renewed after each success.
//
// The seed is fixed (FUZZ_SEED overrides it) and printed with every failure; a failure report
// also carries fast-check's own seed and path for the failing operation.

const SEED = Number(process.env.FUZZ_SEED ?? 20_251_124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

/**
 * Operations whose success is an endless event stream: inject resolves at the response head, the
 * body is read only when it is not the stream, and the service's shutdown ends the streams left.
 */
const ENDLESS_STREAMS = ['GET /api/v1/notifications/stream'];

/** GETs that write: the or-create route makes a record on first use. */
const WRITING_GETS = ['/or-create/'];

type Role = 'public' | 'owner' | 'actor' | 'admin' | 'session';

const ACCESS = '{{access}}';
const REFRESH = '{{refresh}}';

function roleOf(operation: Operation): Role {
  if (!operation.secured) return 'public';
  if (operation.path.startsWith('/api/v1/admin/')) return 'admin';
  if (operation.path.startsWith('/api/v1/auth/logout')) return 'session';
  if (operation.method === 'GET' && !WRITING_GETS.some((part) => operation.path.includes(part)))
    return 'owner';
  return 'actor';
}

/** One seed per operation, derived from the run's seed, so that each operation's runs can be replayed alone. */
function seedOf(operation: Operation): number {
  let hash = SEED | 0;
  for (const char of operation.key) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** Per operation, how many answers had each status: how deep the runs got (FUZZ_REPORT=1 prints it). */
function statusReport(statuses: Map<string, number[]>): string {
  return [...statuses]
    .map(([key, seen]) => {
      const counts = new Map<number, number>();
      for (const status of seen) counts.set(status, (counts.get(status) ?? 0) + 1);
      const summary = [...counts].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
      return `${key}: ${summary.join(' ')}`;
    })
    .join('\n');
}

describe(`OpenAPI fuzzing (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS})`, () => {
  let sut: TestApp;
  let users: Record<Exclude<Role, 'public'>, TestUser>;
  let sacrificialIds: number[];

  beforeAll(async () => {
    sut = await createTestApp({
      env: { NEWS_PROVIDER: '', NEWS_WIRE_BASE_URL: 'https://invest.example.com', FINNHUB_API_KEY: '' },
    });
    users = {
      owner: await withData(await registerUser(sut)),
      actor: await withData(await registerUser(sut)),
      admin: await createSuperuser(sut),
      session: await registerUser(sut),
    };
    sacrificialIds = [(await registerUser(sut)).id, (await registerUser(sut)).id];
  });
  afterAll(() => sut.close());

  async function withData(user: TestUser): Promise<TestUser> {
    const setup: InjectOptions[] = [
      { method: 'GET', url: '/api/v1/preferences/or-create/intermediate' },
      { method: 'PATCH', url: '/api/v1/preferences/watchlist', payload: ['AAPL', 'MSFT'] },
      ...[
        { symbol: 'AAPL', side: 'buy', quantity: 10, price: 100, executed_at: '2025-01-06' },
        { symbol: 'MSFT', side: 'buy', quantity: 5.5, price: 200, executed_at: '2025-01-07', fees: 1 },
        { symbol: 'AAPL', side: 'sell', quantity: 3, price: 120, executed_at: '2025-02-03', note: 'trim' },
      ].map((payload) => ({ method: 'POST' as const, url: '/api/v1/portfolio/transactions', payload })),
    ];
    for (const request of setup) {
      const response = await sut.inject({ ...request, headers: user.headers });
      if (response.statusCode >= 300)
        throw new Error(`setup ${request.url}: ${response.statusCode} ${response.body}`);
    }
    return user;
  }

  /** Everything the service stores about a user that a request could change. */
  async function snapshot(user: TestUser): Promise<string> {
    const urls = ['/api/v1/auth/me', '/api/v1/preferences/', '/api/v1/portfolio/transactions?limit=1000'];
    const own = await Promise.all(urls.map((url) => sut.inject({ url, headers: user.headers })));
    const account = await sut.inject({ url: `/api/v1/admin/users/${user.id}`, headers: users.admin.headers });
    return JSON.stringify([...own, account].map((response) => [response.statusCode, response.body]));
  }

  function contextFor(role: Role): RequestContext {
    const wrongAuthorizations = [`Bearer ${REFRESH}`, `Basic ${ACCESS}`, `Bearer  ${ACCESS}`];
    if (role === 'public') return { authorization: null, wrongAuthorizations };
    return {
      authorization: `Bearer ${ACCESS}`,
      wrongAuthorizations,
      pathValue: role === 'admin' ? awayFromProtectedUsers : undefined,
    };
  }

  /** Admin operations may delete, demote or deactivate: an id that reads as a fuzz user's becomes a spare user's. */
  function awayFromProtectedUsers(_name: string, value: string): string {
    let decoded: string;
    try {
      decoded = decodeURIComponent(value);
    } catch {
      return value;
    }
    const protectedIds = Object.values(users).map((user) => user.id);
    return protectedIds.includes(Number(decoded)) ? String(sacrificialIds[0]) : value;
  }

  async function send(request: FuzzRequest, role: Role): Promise<InjectResponse> {
    const user = role === 'public' ? users.session : users[role];
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [
        name,
        value.replaceAll(ACCESS, user.accessToken).replaceAll(REFRESH, user.refreshToken),
      ]),
    );
    if (ENDLESS_STREAMS.includes(`${request.method} ${request.url.split('?')[0]}`)) {
      const head = await sut.app.inject({
        method: request.method,
        url: request.url,
        headers,
        payloadAsStream: true,
      });
      const stream = head.stream();
      let body = '';
      if (String(head.headers['content-type']).startsWith('text/event-stream')) stream.destroy();
      else for await (const chunk of stream) body += String(chunk);
      return { statusCode: head.statusCode, headers: head.headers, body, json: () => JSON.parse(body) };
    }
    const response = await sut.app.inject({
      method: request.method,
      url: request.url,
      headers,
      ...(request.payload === undefined ? {} : { payload: request.payload }),
    });
    return {
      statusCode: response.statusCode,
      headers: response.headers,
      body: response.body,
      json: () => JSON.parse(response.body),
    };
  }

  it(
    'answers every operation below 500, in the error shape, without internals, and changes only what it may',
    async () => {
      const document = (await sut.inject({ url: '/openapi.json' })).json();
      const operations = operationsOf(document);
      expect(operations.length).toBeGreaterThan(40);
      const ownerBefore = await snapshot(users.owner);
      let actorState = await snapshot(users.actor);
      const failures: string[] = [];
      const statuses = new Map<string, number[]>();

      for (const operation of operations) {
        const role = roleOf(operation);
        const seen: number[] = [];
        statuses.set(operation.key, seen);
        const property = fc.asyncProperty(requestArbitrary(operation, contextFor(role)), async (request) => {
          const response = await send(request, role);
          seen.push(response.statusCode);
          const problems = problemsWith(response);
          if (role === 'actor') {
            const after = await snapshot(users.actor);
            if (response.statusCode >= 400 && after !== actorState)
              problems.push('a refused request changed data');
            actorState = after;
          }
          if (role === 'session' && response.statusCode < 400) {
            Object.assign(users.session, await login(sut, users.session.email, users.session.password));
          }
          if (problems.length > 0) {
            throw new Error(`${problems.join('; ')}: ${response.statusCode} ${response.body.slice(0, 400)}`);
          }
        });
        // No time limit: an interrupted run would leave its request going while the next starts.
        const details = await fc.check(property, { seed: seedOf(operation), numRuns: RUNS });
        if (details.failed) {
          failures.push(
            `${operation.key} as ${role} (FUZZ_SEED=${SEED}):\n${fc.defaultReportMessage(details)}`,
          );
        }
      }

      if (process.env.FUZZ_REPORT) console.log(statusReport(statuses));
      expect(failures).toEqual([]);
      const cutShort = [...statuses].filter(([, seen]) => seen.length < RUNS).map(([key]) => key);
      expect(cutShort).toEqual([]);
      const onlyUnauthorized = [...statuses]
        .filter(([key]) => operations.find((operation) => operation.key === key)?.secured)
        .filter(([, seen]) => seen.every((status) => status === 401))
        .map(([key]) => key);
      expect(onlyUnauthorized).toEqual([]);
      expect(await snapshot(users.owner)).toBe(ownerBefore);
      expect((await sut.inject({ url: '/api/v1/system/health' })).statusCode).toBe(200);
    },
    10 * 60_000,
  );
});
