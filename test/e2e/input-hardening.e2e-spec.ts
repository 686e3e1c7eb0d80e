import { connect } from 'node:net';
import { DataSource } from 'typeorm';
import { createSuperuser, registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, InjectOptions, TestApp } from '../setup/test-app';
import { typedApi } from '../support/typed-api';

// Client mistakes that used to answer 500 (issue 9, part 3): each is a 4xx in the spec's error
// shape, and none leaves the database connection pool unusable for the requests after it.
// The mistakes are raw `sut.inject()` on purpose: malformed bodies, wrong types and hostile values
// are what the typed client refuses to build. The checks after them go through the typed client.

const JSON_HEADERS = { 'content-type': 'application/json' };
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };

const NUL_MESSAGE = 'the text must not contain the NUL character (U+0000)';
const nulIssue = (loc: (string | number)[]) => ({
  loc,
  msg: `Value error, ${NUL_MESSAGE}`,
  type: 'value_error',
  ctx: { error: NUL_MESSAGE },
});

describe('client mistakes answer 4xx, never 500', () => {
  let sut: TestApp;
  let admin: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    sut = await createTestApp();
    admin = await createSuperuser(sut);
    user = await registerUser(sut);
  });
  afterAll(() => sut.close());

  // After every mistake, the pooled connections still read and write.
  afterEach(async () => {
    const read = await typedApi(sut, user).GET('/api/v1/portfolio/transactions');
    expect(read.response.status).toBe(200);
    const list = await typedApi(sut, admin).GET('/api/v1/admin/users', { params: { query: { limit: 1 } } });
    expect(list.response.status).toBe(200);
    await registerUser(sut);
  });

  const send = (options: InjectOptions) => sut.inject(options);

  it('statements the database refuses (unique violations, in and out of a transaction) leave the pool usable', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const duplicate = await send({
        method: 'POST',
        url: '/api/v1/users/register',
        payload: { email: user.email, password: 'plenty long passphrase', full_name: 'Again' },
      });
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json()).toEqual({ detail: 'Email already registered' });
      const taken = await send({
        method: 'PUT',
        url: `/api/v1/admin/users/${user.id}`,
        headers: admin.headers,
        payload: { email: admin.email },
      });
      expect(taken.statusCode).toBe(400);
      expect(taken.json()).toEqual({ detail: 'Email already in use by another user' });
    }
  });

  describe('JSON nested deeper than 32 levels', () => {
    const tooDeep = {
      loc: ['body'],
      msg: 'JSON decode error',
      type: 'json_invalid',
      ctx: { error: 'Nesting deeper than 32 levels' },
    };
    const deepObject = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const deepArray = '['.repeat(15000) + ']'.repeat(15000);

    it.each([
      ['POST', '/api/v1/users/register', false],
      ['POST', '/api/v1/auth/login', false],
      ['POST', '/api/v1/auth/refresh', false],
      ['POST', '/api/v1/preferences/', true],
      ['POST', '/api/v1/preferences/wizard', true],
      ['PATCH', '/api/v1/preferences/watchlist', true],
      ['POST', '/api/v1/admin/users/', true],
      ['POST', '/api/v1/portfolio/transactions', true],
      ['POST', '/api/v1/portfolio/rebalance', true],
      ['POST', '/api/v1/news/sentiment', true],
    ] as const)('%s %s is a 422 json_invalid', async (method, url, authenticated) => {
      for (const payload of [deepObject, deepArray]) {
        const response = await send({
          method,
          url,
          payload,
          headers: { ...JSON_HEADERS, ...(authenticated ? admin.headers : {}) },
        });
        expect(response.statusCode).toBe(422);
        expect(response.json()).toEqual({ detail: [tooDeep] });
      }
    });

    it('accepts 32 levels, the documented limit', async () => {
      const nested = '{"a":'.repeat(31) + '[1]' + '}'.repeat(31);
      const response = await send({
        method: 'POST',
        url: '/api/v1/users/register',
        payload: nested,
        headers: JSON_HEADERS,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail.map((issue: { type: string }) => issue.type)).not.toContain(
        'json_invalid',
      );
    });

    it('answers a body that is not UTF-8 with a 422 json_invalid', async () => {
      const response = await sut.app.inject({
        method: 'POST',
        url: '/api/v1/users/register',
        headers: JSON_HEADERS,
        payload: Buffer.concat([
          Buffer.from('{"email":"a@example.com","full_name":"'),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('"}'),
        ]),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          { loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error: 'Invalid UTF-8' } },
        ],
      });
    });
  });

  describe('strings containing U+0000', () => {
    it('register: 422 at each field with a NUL', async () => {
      const response = await send({
        method: 'POST',
        url: '/api/v1/users/register',
        payload: { email: 'nul@example.com', password: 'pass\u0000word1', full_name: 'Nul\u0000Name' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [nulIssue(['body', 'password']), nulIssue(['body', 'full_name'])],
      });
    });

    it('register: a NUL in one field and a missing other field are both reported', async () => {
      const response = await send({
        method: 'POST',
        url: '/api/v1/users/register',
        payload: { email: 'nul\u0000@example.com', password: 'plenty long passphrase' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          nulIssue(['body', 'email']),
          { loc: ['body', 'full_name'], msg: 'Field required', type: 'missing' },
        ],
      });
    });

    it('login (form and JSON): 422 at the field', async () => {
      const form = await send({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: `username=${encodeURIComponent(user.email)}%00&password=whatever1`,
        headers: FORM_HEADERS,
      });
      expect(form.statusCode).toBe(422);
      expect(form.json()).toEqual({ detail: [nulIssue(['body', 'username'])] });
      const json = await send({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username: user.email, password: 'what\u0000ever' },
      });
      expect(json.statusCode).toBe(422);
      expect(json.json()).toEqual({ detail: [nulIssue(['body', 'password'])] });
    });

    it('admin create and update: 422 at the field, nothing stored', async () => {
      const created = await send({
        method: 'POST',
        url: '/api/v1/admin/users/',
        headers: admin.headers,
        payload: { email: 'made@example.com', password: 'plenty long passphrase', full_name: '\u0000' },
      });
      expect(created.statusCode).toBe(422);
      expect(created.json()).toEqual({ detail: [nulIssue(['body', 'full_name'])] });
      const updated = await send({
        method: 'PUT',
        url: `/api/v1/admin/users/${user.id}`,
        headers: admin.headers,
        payload: { full_name: 'Renamed\u0000' },
      });
      expect(updated.statusCode).toBe(422);
      expect(updated.json()).toEqual({ detail: [nulIssue(['body', 'full_name'])] });
      const stored = await send({ url: `/api/v1/admin/users/${user.id}`, headers: admin.headers });
      expect(stored.json().full_name).toBe(user.fullName);
    });

    it('preferences, wizard and watchlist: 422 at the nested field or list item', async () => {
      const created = await send({
        method: 'POST',
        url: '/api/v1/preferences/',
        headers: user.headers,
        payload: {
          experience_level: 'beginner',
          information_sources: [{ type: 'news\u0000', priority: 1 }],
        },
      });
      expect(created.statusCode).toBe(422);
      expect(created.json()).toEqual({ detail: [nulIssue(['body', 'information_sources', 0, 'type'])] });
      const wizard = await send({
        method: 'POST',
        url: '/api/v1/preferences/wizard',
        headers: user.headers,
        payload: { step_data: { essential: { experience_level: '\u0000' } }, complete: false },
      });
      expect(wizard.statusCode).toBe(422);
      expect(wizard.json()).toEqual({
        detail: [nulIssue(['body', 'step_data', 'essential', 'experience_level'])],
      });
      const watchlist = await send({
        method: 'PATCH',
        url: '/api/v1/preferences/watchlist',
        headers: user.headers,
        payload: ['AAPL', 'MS\u0000FT'],
      });
      expect(watchlist.statusCode).toBe(422);
      expect(watchlist.json()).toEqual({ detail: [nulIssue(['body', 1])] });
    });

    it('a key containing NUL is reported at that key', async () => {
      const response = await send({
        method: 'PUT',
        url: '/api/v1/preferences/',
        headers: user.headers,
        payload: { 'privacy\u0000level': 'full' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: [nulIssue(['body', 'privacy\u0000level'])] });
    });

    it('transaction note, query and path parameters: 422 at the field', async () => {
      const note = await send({
        method: 'POST',
        url: '/api/v1/portfolio/transactions',
        headers: user.headers,
        payload: {
          symbol: 'AAPL',
          side: 'buy',
          quantity: 1,
          price: 100,
          executed_at: '2025-01-06',
          note: 'a\u0000b',
        },
      });
      expect(note.statusCode).toBe(422);
      expect(note.json()).toEqual({ detail: [nulIssue(['body', 'note'])] });
      const query = await send({ url: '/api/v1/news/?keywords=a%00b', headers: user.headers });
      expect(query.statusCode).toBe(422);
      expect(query.json()).toEqual({ detail: [nulIssue(['query', 'keywords'])] });
      const path = await send({ url: '/api/v1/market/stock/AA%00PL', headers: user.headers });
      expect(path.statusCode).toBe(422);
      expect(path.json()).toEqual({ detail: [nulIssue(['path', 'symbol'])] });
    });

    it('a lone UTF-16 surrogate is a 422 string_unicode', async () => {
      const response = await send({
        method: 'POST',
        url: '/api/v1/users/register',
        payload: '{"email":"s@example.com","password":"plenty long passphrase","full_name":"x\\ud800y"}',
        headers: JSON_HEADERS,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          {
            loc: ['body', 'full_name'],
            msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
            type: 'string_unicode',
          },
        ],
      });
    });

    // Issue 21, defect 4: the email validator used to throw URIError on such a string (a 500).
    const surrogateIssue = (loc: (string | number)[]) => ({
      loc,
      msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
      type: 'string_unicode',
    });

    it('a lone surrogate in an email is a 422 at the email on register, admin create and admin update', async () => {
      const registered = await send({
        method: 'POST',
        url: '/api/v1/users/register',
        payload: '{"email":"s\\ud800@example.com","password":"password1","full_name":"S"}',
        headers: JSON_HEADERS,
      });
      expect(registered.statusCode).toBe(422);
      expect(registered.json()).toEqual({ detail: [surrogateIssue(['body', 'email'])] });
      const created = await send({
        method: 'POST',
        url: '/api/v1/admin/users/',
        payload: '{"email":"\\ud800","password":"password1","full_name":"S"}',
        headers: { ...admin.headers, ...JSON_HEADERS },
      });
      expect(created.statusCode).toBe(422);
      expect(created.json()).toEqual({ detail: [surrogateIssue(['body', 'email'])] });
      const updated = await send({
        method: 'PUT',
        url: `/api/v1/admin/users/${user.id}`,
        payload: '{"email":"a\\udfff@example.com"}',
        headers: { ...admin.headers, ...JSON_HEADERS },
      });
      expect(updated.statusCode).toBe(422);
      expect(updated.json()).toEqual({ detail: [surrogateIssue(['body', 'email'])] });
    });

    it("a lone surrogate is reported beside the request's other field issues", async () => {
      const response = await send({
        method: 'POST',
        url: '/api/v1/users/register',
        payload: '{"email":"\\ud800@example.com","password":"short","full_name":"x"}',
        headers: JSON_HEADERS,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          surrogateIssue(['body', 'email']),
          {
            loc: ['body', 'password'],
            msg: 'String should have at least 8 characters',
            type: 'string_too_short',
            ctx: { min_length: 8 },
          },
        ],
      });
    });
  });

  describe('percent signs', () => {
    it('malformed percent-escapes in body strings are stored as sent (JSON and form bodies)', async () => {
      const created = await send({
        method: 'POST',
        url: '/api/v1/admin/users/',
        headers: admin.headers,
        payload: {
          email: 'per%zzcent@example.com',
          password: 'percent %E0%A4%A phrase',
          full_name: '%E0%A4%A',
        },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ email: 'per%zzcent@example.com', full_name: '%E0%A4%A' });
      const updated = await send({
        method: 'PUT',
        url: `/api/v1/admin/users/${created.json().id}`,
        headers: { ...admin.headers, ...FORM_HEADERS },
        payload: 'full_name=100%25%zz',
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.json().full_name).toBe('100%%zz');
    });

    it('a malformed percent-escape in the URL path is a 400 in the spec shape', async () => {
      for (const url of ['/api/v1/admin/users/%E0%A4%A', '/api/v1/admin/users/%']) {
        for (const method of ['GET', 'PUT', 'DELETE'] as const) {
          const response = await send({
            method,
            url,
            headers: admin.headers,
            payload: method === 'PUT' ? {} : undefined,
          });
          expect(response.statusCode).toBe(400);
          expect(response.json()).toEqual({ detail: 'Malformed percent-encoding in the URL path' });
        }
      }
    });

    it('a path parameter over 100 characters is a 414 in the spec shape', async () => {
      const response = await send({ url: `/api/v1/market/stock/${'A'.repeat(101)}`, headers: user.headers });
      expect(response.statusCode).toBe(414);
      expect(response.json()).toEqual({ detail: 'URL path parameter too long (at most 100 characters)' });
    });
  });

  describe('requests the HTTP parser refuses', () => {
    /** Writes raw bytes to a listening server and returns everything it answers. */
    let baseUrl: string | undefined;
    const rawExchange = async (request: string): Promise<string> => {
      baseUrl ??= await sut.listen();
      const { port } = new URL(baseUrl);
      return new Promise((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    };
    const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

    it('a malformed header line is a 400 in the spec shape', async () => {
      const answer = await rawExchange(
        'GET /api/v1/system/health HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(bodyOf(answer)).toEqual({ detail: 'Bad Request' });
    });

    it('oversized headers are a 431 in the spec shape', async () => {
      const answer = await rawExchange(
        `GET /api/v1/system/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(bodyOf(answer)).toEqual({ detail: 'Request header fields too large' });
    });
  });

  describe('pagination bounds', () => {
    const skipTooLarge = {
      loc: ['query', 'skip'],
      msg: 'Input should be less than or equal to 2147483647',
      type: 'less_than_equal',
      ctx: { le: 2147483647 },
    };

    it.each(['9223372036854775808', '2147483648', '1e300'])(
      'skip=%s is a 422 less_than_equal',
      async (skip) => {
        for (const [url, headers] of [
          ['/api/v1/admin/users/', admin.headers],
          ['/api/v1/portfolio/transactions', user.headers],
        ] as const) {
          const response = await send({ url: `${url}?skip=${skip}`, headers });
          expect(response.statusCode).toBe(422);
          expect(response.json()).toEqual({ detail: [skipTooLarge] });
        }
      },
    );

    it('accepts the largest skip', async () => {
      const response = await send({ url: '/api/v1/admin/users/?skip=2147483647', headers: admin.headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    });

    it('a huge limit is a 422 less_than_equal', async () => {
      const response = await send({
        url: '/api/v1/portfolio/transactions?limit=9223372036854775808',
        headers: user.headers,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toEqual([
        {
          loc: ['query', 'limit'],
          msg: 'Input should be less than or equal to 1000',
          type: 'less_than_equal',
          ctx: { le: 1000 },
        },
      ]);
    });
  });

  describe('ledger amounts', () => {
    const trade = { symbol: 'AAPL', side: 'buy', quantity: 1, price: 100, executed_at: '2025-01-06' };
    const record = (who: TestUser, payload: object) =>
      send({ method: 'POST', url: '/api/v1/portfolio/transactions', headers: who.headers, payload });
    const importCsv = (who: TestUser, csv: string) =>
      send({
        method: 'POST',
        url: '/api/v1/portfolio/transactions/import',
        headers: { ...who.headers, 'content-type': 'text/csv' },
        payload: csv,
      });
    const tooSmall = (loc: (string | number)[]) => ({
      loc,
      msg: 'Input should be greater than or equal to 1e-8',
      type: 'greater_than_equal',
      ctx: { ge: 1e-8 },
    });
    const tooLarge = (loc: (string | number)[], le: number) => ({
      loc,
      msg: `Input should be less than or equal to ${le}`,
      type: 'less_than_equal',
      ctx: { le },
    });

    it('quantity, price and fees beyond their limits are 422s at the field', async () => {
      const response = await record(user, { ...trade, quantity: 1e17, price: 1e7, fees: 1e10 });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          tooLarge(['body', 'quantity'], 1e9),
          tooLarge(['body', 'price'], 1e6),
          tooLarge(['body', 'fees'], 1e9),
        ],
      });
    });

    it('a price or quantity that would round to 0 at 8 decimals is a 422, not a CHECK violation', async () => {
      const response = await record(user, { ...trade, quantity: 4e-9, price: 4e-9 });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [tooSmall(['body', 'quantity']), tooSmall(['body', 'price'])],
      });
      const smallest = await record(user, { ...trade, quantity: 1e-8, price: 1e-8 });
      expect(smallest.statusCode).toBe(201);
      expect(smallest.json()).toMatchObject({ quantity: 1e-8, price: 1e-8 });
    });

    it('the same limits apply to CSV rows, reported at row and column', async () => {
      const response = await importCsv(
        user,
        'date,symbol,side,quantity,price,fees\n2025-01-06,AAPL,buy,1e17,1,0\n2025-01-06,AAPL,buy,1,4e-9,1e10\n',
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          tooLarge(['body', 0, 'quantity'], 1e9),
          tooSmall(['body', 1, 'price']),
          tooLarge(['body', 1, 'fees'], 1e9),
        ],
      });
    });

    it('a realized P&L beyond numeric(24, 8) is refused with a 400, nothing stored', async () => {
      // Rows recorded before the limits existed: a realized P&L of 1e18 is computed on the next change.
      const owner = await registerUser(sut);
      const accounts = await send({ url: '/api/v1/portfolio/accounts', headers: owner.headers });
      await sut.app.get(DataSource).query(
        `INSERT INTO portfolio_transactions
           (user_id, account_id, symbol, side, quantity, price, fees, executed_at, trade_date, created_at)
         VALUES ($1, $2, 'AAPL', 'buy', 1e15, 0.00000001, 0, '2025-01-06', '2025-01-06', now()),
                ($1, $2, 'AAPL', 'sell', 1e15, 1000, 0, '2025-01-07', '2025-01-07', now())`,
        [owner.id, accounts.json().accounts[0].id],
      );
      const response = await record(owner, { ...trade, executed_at: '2025-01-08' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        detail:
          'The realized P&L of a sell of AAPL would exceed the ledger range (±9,999,999,999,999,999.99999999)',
      });
      const list = await send({ url: '/api/v1/portfolio/transactions', headers: owner.headers });
      expect(list.json().total).toBe(2);
    });

    it('a rebalance whose trade exceeds the quantity limit is refused with a 400, nothing stored', async () => {
      const owner = await registerUser(sut);
      expect((await record(owner, { ...trade, symbol: 'F', quantity: 10, price: 10 })).statusCode).toBe(201);
      const response = await send({
        method: 'POST',
        url: '/api/v1/portfolio/rebalance',
        headers: owner.headers,
        payload: { targets: [{ symbol: 'F', weight: 100 }], cash: 1e12 },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(/^A trade of [\d.]+ F is outside the ledger limits/);
      const list = await send({ url: '/api/v1/portfolio/transactions', headers: owner.headers });
      expect(list.json().total).toBe(1);
    });
  });

  describe('CSV import syntax', () => {
    const importCsv = (csv: string) =>
      send({
        method: 'POST',
        url: '/api/v1/portfolio/transactions/import',
        headers: { ...user.headers, 'content-type': 'text/csv' },
        payload: csv,
      });
    const unclosed =
      'an opening quote has no closing quote, so the rest of the file would be read as this value';

    it('an unterminated quote is a 422 at its row and column instead of swallowing the next rows', async () => {
      const response = await importCsv(
        'date,symbol,side,quantity,price,note\n2025-01-06,AAPL,buy,1,1,ok\n2025-01-06,AAPL,buy,1,1,"oops\n2025-01-07,AAPL,buy,1,1,x\n',
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          {
            loc: ['body', 1, 'note'],
            msg: `Value error, ${unclosed}`,
            type: 'value_error',
            ctx: { error: unclosed },
          },
        ],
      });
      const list = await send({ url: '/api/v1/portfolio/transactions?symbol=AAPL', headers: user.headers });
      expect(list.json().transactions.map((row: { note: string | null }) => row.note)).not.toContain('ok');
    });

    it('an unterminated quote in the header is a 422 at the header', async () => {
      const response = await importCsv('date,symbol,side,quantity,"price\n2025-01-06,AAPL,buy,1,1\n');
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          {
            loc: ['body', 'header'],
            msg: `Value error, ${unclosed}`,
            type: 'value_error',
            ctx: { error: unclosed },
          },
        ],
      });
    });

    it('a NUL in a CSV cell is a 422 at its row and column', async () => {
      const response = await importCsv(
        'date,symbol,side,quantity,price,note\n2025-01-06,AAPL,buy,1,1,a\u0000b\n',
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: [nulIssue(['body', 0, 'note'])] });
    });
  });
});
