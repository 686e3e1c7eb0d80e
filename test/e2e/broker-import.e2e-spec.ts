import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { paths } from '../../client';
import { asCsv, dataOf, issuesOf, typedApi } from '../support/typed-api';

const URL = '/api/v1/portfolio/import';
type ImportQuery = NonNullable<paths[typeof URL]['post']['parameters']['query']>;
const fixture = (path: string) => readFileSync(join(__dirname, '../fixtures/brokers', path));
const fixtureText = (path: string) => fixture(path).toString('utf8');

describe('POST /portfolio/import (brokerage exports as downloaded)', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  const csv = (user: TestUser, text: string, query: ImportQuery = {}) =>
    typedApi(sut, user).POST(URL, { body: text, ...asCsv, params: { query } });
  // Raw: multipart bodies, which the typed client over inject() does not send (it sends strings
  // only), and so the bytes of binary and UTF-16 files; so do the malformed multipart bodies below.
  const multipart = (user: TestUser, file: Buffer, query = '', filename = 'export.csv') => {
    const boundary = '----broker-import-test';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
          'Content-Type: text/csv\r\n\r\n',
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return sut.inject({
      method: 'POST',
      url: `${URL}${query}`,
      headers: { ...user.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
  };
  // The commit of a preview sends no file: the document's body is optional.
  const commit = (user: TestUser, token: string) =>
    typedApi(sut, user).POST('/api/v1/portfolio/import', { params: { query: { preview_token: token } } });
  const transactions = async (user: TestUser) =>
    dataOf(
      await typedApi(sut, user).GET('/api/v1/portfolio/transactions', { params: { query: { limit: 1000 } } }),
    );
  const positionsOf = async (user: TestUser, accountId?: number) =>
    dataOf(
      await typedApi(sut, user).GET('/api/v1/portfolio/positions', {
        params: { query: { include_cash: true, account_id: accountId } },
      }),
    );
  const cashAndPositions = async (user: TestUser) => {
    const positions = await positionsOf(user);
    return {
      cash: positions.cash_balance,
      quantities: Object.fromEntries(
        positions.positions.map((position) => [position.symbol, position.quantity]),
      ),
    };
  };

  it('previews a Robinhood file (detected), then records exactly that preview with its token', async () => {
    const user = await registerUser(sut);
    const preview = await multipart(user, fixture('written/robinhood-activity.csv'), '?dry_run=true');
    expect(preview.statusCode).toBe(200);
    const body = preview.json();
    expect(body).toMatchObject({
      format: 'robinhood',
      layout: 'Account activity',
      detected: true,
      dry_run: true,
      counts: { deposit: 1, buy: 3, interest: 1, fee: 1, sell: 1, dividend: 1 },
      to_record: 8,
      recorded: 0,
      rejected: [],
      duplicates: [],
      refused: null,
    });
    expect(body.skipped).toEqual([
      { line: 6, action: 'BTO', reason: 'an option: the ledger holds shares only' },
      { line: 17, action: 'OEXP', reason: 'an option: the ledger holds shares only' },
    ]);
    expect(body.rows[0]).toEqual({
      line: 16,
      side: 'deposit',
      date: '2023-11-01',
      symbol: null,
      quantity: null,
      price: null,
      fees: null,
      amount: 10000,
      withholding_tax: null,
      ratio: null,
      note: 'Robinhood line 16: ACH',
      paired_with: null,
    });
    expect(await transactions(user)).toMatchObject({ total: 0 });

    const committed = await commit(user, body.preview_token);
    expect(committed.response.status).toBe(201);
    expect(committed.data).toEqual({
      ...body,
      dry_run: false,
      preview_token: null,
      expires_at: null,
      recorded: 8,
    });
    const listed = (await transactions(user)).transactions.reverse();
    expect(listed.map((row) => [row.side, row.symbol, row.note])).toEqual(
      body.rows.map((row: { side: string; symbol: string | null; note: string }) => [
        row.side,
        row.symbol,
        row.note,
      ]),
    );
    expect(await cashAndPositions(user)).toEqual({ cash: 5396.03, quantities: { AAPL: 20.5, MSFT: 3 } });

    const again = await commit(user, body.preview_token);
    expect(again.response.status).toBe(404);
    expect(again.error).toEqual({
      detail: 'Import preview not found: it expired, was committed already, or is not yours',
    });
  });

  it('records each broker transaction once: the same file twice, and an overlapping download', async () => {
    const user = await registerUser(sut);
    const file = fixtureText('written/merrill-activities.csv');
    const first = await csv(user, file);
    expect(first.response.status).toBe(201);
    expect(first.data).toMatchObject({ format: 'merrill_edge', recorded: 6 });

    const second = await csv(user, file);
    expect(second.response.status).toBe(201);
    expect(second.data).toMatchObject({ recorded: 0, to_record: 0 });
    expect(dataOf(second).duplicates.map((row) => row.line)).toEqual([2, 3, 4, 5, 7, 10]);

    // A later download: the last three rows of the first and one new settled row.
    const lines = file.trimEnd().split('\n');
    const overlapping = [
      lines[0],
      ...lines.slice(6),
      '"7/15/2024","7/15/2024","Settled","Main","CMA-Edge","XXXX-1111","Other","Deposit ","FUNDS RECEIVED","--","--","--","500.00"',
    ].join('\n');
    const third = await csv(user, overlapping);
    expect(third.data).toMatchObject({ recorded: 1, counts: { deposit: 1 } });
    expect((await transactions(user)).total).toBe(7);
    expect(await cashAndPositions(user)).toEqual({ cash: 10877.16, quantities: { JNJ: 60 } });
  });

  it('records into the account named by account_id, fitting the file to that account alone', async () => {
    const user = await registerUser(sut);
    const ira = await typedApi(sut, user).POST('/api/v1/portfolio/accounts', {
      body: { name: 'IRA', kind: 'ira' },
    });
    expect(ira.response.status).toBe(201);
    const accountId = dataOf(ira).id;
    const file = fixtureText('written/merrill-activities.csv');

    const recorded = await csv(user, file, { account_id: accountId });
    expect(recorded.response.status).toBe(201);
    expect(recorded.data).toMatchObject({ recorded: 6 });
    const accounts = (await transactions(user)).transactions.map(
      (transaction: { account_id: number }) => transaction.account_id,
    );
    expect(new Set(accounts)).toEqual(new Set([accountId]));
    const inIra = await positionsOf(user, accountId);
    expect(inIra.positions.map((position) => position.symbol)).toEqual(['JNJ']);

    const elsewhere = await csv(user, file, { account_id: 2147483647 });
    expect(elsewhere.response.status).toBe(404);
    expect(elsewhere.error).toEqual({ detail: 'Account not found' });
  });

  // Schwab, newest first: deposit 5,000; buy 10 MSFT @ 380 (one lot); "Security Transfer" −4 MSFT
  // (out: 4 of that lot leave, cost 1,520, nothing realized); "Journaled Shares" +25 AAPL (in, with
  // no cost basis: skipped); sell 3 MSFT @ 410 − 0.02 = 1,229.98 against 3 × 380 = 1,140 → 89.98.
  // Left: 3 MSFT of the lot (cost 1,140), cash 5,000 − 3,800 + 1,229.98 = 2,429.98.
  it('records shares leaving as a transfer_out of their lots, and skips shares arriving without a cost basis with how to record them', async () => {
    const user = await registerUser(sut);
    const file = fixtureText('written/schwab-share-transfers.csv');
    const imported = await csv(user, file);
    expect(imported.response.status).toBe(201);
    const body = dataOf(imported);
    expect(body).toMatchObject({
      counts: { deposit: 1, buy: 1, transfer_out: 1, sell: 1 },
      recorded: 4,
      rejected: [],
    });
    expect(body.rows.find((row) => row.line === 3)).toMatchObject({
      side: 'transfer_out',
      symbol: 'MSFT',
      quantity: 4,
      amount: null,
    });
    expect(body.skipped).toEqual([
      {
        line: 4,
        action: 'Journaled Shares',
        reason: expect.stringContaining(
          'record them with POST /api/v1/portfolio/transactions as a transfer_in of 25 AAPL on 2024-02-01, amount = their cost basis',
        ),
      },
    ]);
    expect(await cashAndPositions(user)).toEqual({ cash: 2429.98, quantities: { MSFT: 3 } });
    const api = typedApi(sut, user);
    expect(
      dataOf(await api.GET('/api/v1/portfolio/lots')).lots.map((lot) => [
        lot.symbol,
        lot.quantity,
        lot.cost_per_share,
      ]),
    ).toEqual([['MSFT', 3, 380]]);
    expect(
      dataOf(await api.GET('/api/v1/portfolio/realized', { params: { query: { year: 2024 } } })).totals,
    ).toMatchObject({ gain: 89.98 });

    // As the skip reason says: the 25 AAPL recorded by hand, then the file again records nothing twice.
    const byHand = await api.POST('/api/v1/portfolio/transactions', {
      body: {
        side: 'transfer_in',
        symbol: 'AAPL',
        quantity: 25,
        amount: 3_000,
        acquired_on: '2021-06-01',
        executed_at: '2024-02-01',
      },
    });
    expect(byHand.response.status).toBe(201);
    const again = await csv(user, file);
    expect(again.response.status).toBe(201);
    expect(again.data).toMatchObject({ recorded: 0, to_record: 0 });
    expect(again.data?.duplicates).toHaveLength(4);
    expect(await cashAndPositions(user)).toEqual({ cash: 2429.98, quantities: { AAPL: 25, MSFT: 3 } });
  });

  // Under strict cash: 1,000 deposited, then 10 AAPL @ 150 bought (1,500): the buy on line 3
  // overdraws. Every row fits the ledger, so only the commit's cash rule refuses the file.
  it('says in the dry run that strict cash would refuse the commit, with the detail the commit answers', async () => {
    const user = await registerUser(sut);
    const strict = await typedApi(sut, user).PUT('/api/v1/portfolio/settings', {
      body: { strict_cash: true },
    });
    expect(strict.response.status).toBe(200);
    const file =
      'Date,Action,Symbol,Description,Quantity,Price,Fees & Comm,Amount\n' +
      '02/01/2024,Sell,AAPL,APPLE INC,4,$180.00,,$720.00\n' +
      '01/10/2024,Buy,AAPL,APPLE INC,10,$150.00,,"-$1,500.00"\n' +
      '01/02/2024,MoneyLink Transfer,,Tfr BANK,,,,"$1,000.00"\n';

    const preview = await csv(user, file, { dry_run: true });
    expect(preview.response.status).toBe(200);
    const { preview_token, refused } = dataOf(preview);
    expect(preview.data).toMatchObject({
      to_record: 3,
      rejected: [],
      refused: { detail: 'Insufficient cash for this buy', line: 3 },
    });
    const committed = await commit(user, preview_token!);
    expect(committed.response.status).toBe(400);
    expect(committed.error).toEqual({ detail: refused?.detail });
    const direct = await csv(user, file);
    expect(direct.response.status).toBe(400);
    expect(direct.error).toEqual({ detail: 'Insufficient cash for this buy' });
    expect(await transactions(user)).toMatchObject({ total: 0 });

    // With 500 more deposited first, the same file previews with nothing refused and records.
    const topUp = await typedApi(sut, user).POST('/api/v1/portfolio/transactions', {
      body: { side: 'deposit', amount: 500, executed_at: '2024-01-02' },
    });
    expect(topUp.response.status).toBe(201);
    const fits = dataOf(await csv(user, file, { dry_run: true }));
    expect(fits.refused).toBeNull();
    const recorded = await commit(user, fits.preview_token!);
    expect(recorded.response.status).toBe(201);
    expect(recorded.data).toMatchObject({ recorded: 3, refused: null });
    expect(await cashAndPositions(user)).toEqual({ cash: 720, quantities: { AAPL: 6 } });
  });

  it('rejects unknown symbols with their lines while the rest previews; without dry_run it records nothing', async () => {
    const user = await registerUser(sut);
    const file = fixtureText('charles_schwab/schwab-export.csv');
    const preview = await csv(user, file, { dry_run: true, format: 'schwab' });
    expect(preview.response.status).toBe(200);
    const body = dataOf(preview);
    expect(body).toMatchObject({ format: 'schwab', detected: false });
    expect(body.rejected).toContainEqual({
      line: 9,
      reason: 'Stock SWVXX not found: the market-data provider does not know it',
    });
    // Line 62 moves 877 DGLRX out of the account: a transfer_out, of a fund the provider does not know.
    expect(body.rejected).toContainEqual({
      line: 62,
      reason: 'Stock DGLRX not found: the market-data provider does not know it',
    });
    expect(body.to_record).toBeGreaterThan(0);
    expect(body.skipped).toHaveLength(12);

    const direct = await csv(user, file);
    expect(direct.response.status).toBe(422);
    expect(issuesOf(direct)[0]).toMatchObject({ loc: ['body', 'line', 2], type: 'value_error' });
    expect((await transactions(user)).total).toBe(0);

    const committed = await commit(user, body.preview_token!);
    expect(committed.response.status).toBe(201);
    expect((await transactions(user)).total).toBe(body.to_record);
  });

  it('records a file once when three imports of it race (over HTTP)', async () => {
    const baseUrl = await sut.listen();
    const user = await registerUser(sut);
    const file = fixture('written/merrill-activities.csv');
    const send = async () => {
      const response = await fetch(`${baseUrl}${URL}`, {
        method: 'POST',
        headers: { ...user.headers, 'content-type': 'text/csv' },
        body: file,
      });
      return { status: response.status, body: (await response.json()) as { recorded?: number } };
    };
    const answers = await Promise.all([send(), send(), send()]);
    for (const { status } of answers) expect([201, 409]).toContain(status);
    const recorded = answers.reduce(
      (sum, answer) => sum + (answer.status === 201 ? answer.body.recorded! : 0),
      0,
    );
    expect(recorded).toBe(6);
    expect((await transactions(user)).total).toBe(6);
  });

  it('answers a 422 naming the closest layouts for a file no parser recognises', async () => {
    const user = await registerUser(sut);
    const response = await csv(
      user,
      'Date,Action,Symbol,Quantity,Price,Amount\n01/02/2024,Buy,AAPL,1,100,-100\n',
    );
    expect(response.response.status).toBe(422);
    const [issue] = issuesOf(response);
    expect(issue.loc).toEqual(['body']);
    expect(issue.msg).toMatch(
      /^Value error, No brokerage layout matches the file; closest: schwab Transactions \(missing Fees & Comm\)/,
    );
    expect(issue.ctx?.closest).toHaveProperty('0', {
      format: 'schwab',
      layout: 'Transactions',
      missing_columns: ['Fees & Comm'],
    });
  });

  it('refuses empty, binary, UTF-16, non-UTF-8 and oversized files with the error shape, never a 500', async () => {
    const user = await registerUser(sut);
    const detailOf = async (response: Promise<{ statusCode: number; json(): { detail: unknown } }>) => {
      const answered = await response;
      return [answered.statusCode, answered.json().detail];
    };
    const csvDetailOf = async (text: string) => {
      const { response, error } = await csv(user, text);
      return [response.status, error?.detail];
    };
    const message = (text: string, type = 'value_error') => [
      { loc: ['body'], msg: `Value error, ${text}`, type, ctx: { error: text } },
    ];
    expect(await detailOf(multipart(user, Buffer.alloc(0)))).toEqual([
      422,
      message('the file is empty', 'missing'),
    ]);
    expect(await csvDetailOf('\n\n')).toEqual([422, message('the file is empty', 'missing')]);
    expect(await detailOf(multipart(user, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])))).toEqual([
      422,
      message('the file is binary, not a CSV export'),
    ]);
    expect(await detailOf(multipart(user, Buffer.from('\ufeffDate,Action\n', 'utf16le')))).toEqual([
      422,
      message('the file is UTF-16: save it as UTF-8 CSV and upload it again'),
    ]);
    const latin1 = Buffer.from(
      'Date,Action,Symbol,Description,Quantity,Price,Fees & Comm,Amount\n01/02/2024,Buy,AAPL,Caf\xe9,1,$1,,-$1\n',
      'latin1',
    );
    const notUtf8 = message(
      'the file is not UTF-8 (Windows-1252 or Latin-1?): save it as UTF-8 CSV and upload it again',
    );
    expect(await detailOf(multipart(user, latin1))).toEqual([422, notUtf8]);
    // Raw: the Latin-1 bytes as a text/csv body, which the typed client (strings only) cannot send.
    const latin1Csv = sut.inject({
      method: 'POST',
      url: URL,
      headers: { ...user.headers, 'content-type': 'text/csv' },
      payload: latin1,
    });
    expect(await detailOf(latin1Csv)).toEqual([422, notUtf8]);
    const oversized = 'x'.repeat(17 * 1024 * 1024);
    expect(await csvDetailOf(oversized)).toEqual([413, 'Request body too large']);
    expect(await detailOf(multipart(user, Buffer.from(oversized)))).toEqual([413, 'Request body too large']);
    expect((await transactions(user)).total).toBe(0);
  });

  it('answers a malformed multipart body (no boundary, no file part) with a 422, not a 500', async () => {
    const user = await registerUser(sut);
    const noBoundary = await sut.inject({
      method: 'POST',
      url: URL,
      headers: { ...user.headers, 'content-type': 'multipart/form-data' },
      payload: '{"file":""}',
    });
    expect(noBoundary.statusCode).toBe(422);
    expect(noBoundary.json().detail[0]).toMatchObject({ loc: ['body'], type: 'value_error' });
    const boundary = 'x-boundary';
    const noFile = await sut.inject({
      method: 'POST',
      url: URL,
      headers: { ...user.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="format"\r\n\r\nauto\r\n--${boundary}--\r\n`,
    });
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json().detail[0]).toMatchObject({
      loc: ['body', 'file'],
      msg: 'Value error, the multipart upload has no file',
    });
  });

  it('reads a UTF-8 file with a BOM, and a file of several megabytes over the 1 MiB body limit of other routes', async () => {
    const user = await registerUser(sut);
    const bom = await multipart(user, fixture('written/fidelity-2025-bom.csv'), '?dry_run=true');
    expect(bom.statusCode).toBe(200);
    expect(bom.json()).toMatchObject({ format: 'fidelity', counts: { deposit: 1, buy: 1, dividend: 1 } });
    const rows = Array.from(
      { length: 30_000 },
      (_, n) => `2017-01-${String((n % 28) + 1).padStart(2, '0')},deposit,,,,,${n + 1},,`,
    );
    const large = await csv(
      user,
      `date,type,symbol,quantity,price,fees,amount,withholding_tax,ratio\n${rows.join('\n')}\n`,
      { dry_run: true },
    );
    expect(large.response.status).toBe(200);
    expect(large.data).toMatchObject({ format: 'native', to_record: 30_000 });
  });

  it('keeps previews to their user', async () => {
    const owner = await registerUser(sut);
    const other = await registerUser(sut);
    const preview = dataOf(await csv(owner, fixtureText('written/webull-orders.csv'), { dry_run: true }));
    expect(preview.notices[0]).toContain('cash balance cannot be rebuilt');
    expect((await commit(other, preview.preview_token!)).response.status).toBe(404);
    expect((await commit(owner, preview.preview_token!)).data).toMatchObject({ recorded: 3 });
    expect((await transactions(other)).total).toBe(0);
  });
});
