import {
  ApiClient,
  createApiClient,
  formBody,
  HTTPError,
  isValidationError,
  ValidationIssue,
} from '../../client';
import { createTestApp, TestApp } from '../setup/test-app';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/**
 * A web client's first session, written against the generated types (npm run typecheck compiles
 * this file under `strict`) and run over real HTTP against a listening server.
 */
describe('the generated TypeScript client', () => {
  let sut: TestApp;
  let baseUrl: string;
  let anonymous: ApiClient;

  beforeAll(async () => {
    sut = await createTestApp();
    baseUrl = await sut.listen();
    anonymous = createApiClient({ baseUrl });
  });
  afterAll(() => sut.close());

  it('registers, logs in, runs the wizard, records trades and reads positions, summary and risk', async () => {
    const email = `typed-client-${Date.now()}@example.com`;
    const password = 'correct horse battery staple';

    const registered = await anonymous.POST('/api/v1/users/register', {
      body: { email, password, full_name: 'Typed Client' },
    });
    expect(registered.response.status).toBe(200);
    expect(registered.data).toMatchObject({ email, full_name: 'Typed Client', is_active: true });

    const login = await anonymous.POST('/api/v1/auth/login', {
      body: { username: email, password },
      bodySerializer: formBody,
      headers: FORM,
    });
    if (!login.data) throw new Error(`login failed: ${JSON.stringify(login.error)}`);
    expect(login.data.token_type).toBe('bearer');
    const api = createApiClient({ baseUrl, headers: { Authorization: `Bearer ${login.data.access_token}` } });

    const me = await api.GET('/api/v1/auth/me');
    expect(me.data?.email).toBe(email);

    const wizard = await api.POST('/api/v1/preferences/wizard', {
      body: {
        step_data: {
          essential: { experience_level: 'intermediate', risk_tolerance: 'moderate' },
          portfolio: { watchlist: ['AAPL', 'MSFT'] },
        },
        complete: true,
      },
    });
    expect(wizard.response.status).toBe(200);
    expect(wizard.data).toMatchObject({
      experience_level: 'intermediate',
      risk_tolerance: 'moderate',
      watchlist: ['AAPL', 'MSFT'],
    });

    for (const trade of [
      { symbol: 'AAPL', side: 'buy', quantity: 10, price: 150, executed_at: '2025-01-06T15:30:00Z' },
      { symbol: 'MSFT', side: 'buy', quantity: 5, price: 300, executed_at: '2025-01-07T15:30:00Z', fees: 1 },
      { symbol: 'AAPL', side: 'sell', quantity: 4, price: 160, executed_at: '2025-02-03T15:30:00Z' },
    ] as const) {
      const recorded = await api.POST('/api/v1/portfolio/transactions', { body: trade });
      expect(recorded.response.status).toBe(201);
      expect(recorded.data).toMatchObject({
        symbol: trade.symbol,
        side: trade.side,
        quantity: trade.quantity,
      });
    }

    const listed = await api.GET('/api/v1/portfolio/transactions', { params: { query: { limit: 2 } } });
    expect(listed.data?.transactions.map((transaction) => transaction.side)).toEqual(['sell', 'buy']);

    const positions = await api.GET('/api/v1/portfolio/positions');
    expect(positions.data?.positions.map(({ symbol, quantity }) => ({ symbol, quantity }))).toEqual(
      expect.arrayContaining([
        { symbol: 'AAPL', quantity: 6 },
        { symbol: 'MSFT', quantity: 5 },
      ]),
    );

    const summary = await api.GET('/api/v1/portfolio/summary');
    expect(summary.data).toMatchObject({ total_cost: 6 * 150 + 5 * 300 + 1, realized_pnl: 40 });
    expect(summary.data?.total_value).toBeGreaterThan(0);

    const risk = await api.GET('/api/v1/portfolio/risk-metrics', {
      params: { query: { lookback_days: 60, benchmark: '^GSPC' } },
    });
    expect(risk.response.status).toBe(200);
    expect(risk.data?.volatility).toEqual(expect.any(Number));
  });

  it('types the error bodies: {detail: string}, and the 422 issue list', async () => {
    const unauthorized = await anonymous.GET('/api/v1/portfolio/settings');
    expect(unauthorized.response.status).toBe(401);
    const missingToken: HTTPError | undefined = unauthorized.error;
    expect(missingToken).toEqual({ detail: 'Could not validate credentials' });

    const duplicate = {
      email: `twice-${Date.now()}@example.com`,
      password: 'long enough 123',
      full_name: 'Twice',
    };
    await anonymous.POST('/api/v1/users/register', { body: duplicate });
    const again = await anonymous.POST('/api/v1/users/register', { body: duplicate });
    expect(again.response.status).toBe(400);
    if (!again.error || isValidationError(again.error)) throw new Error('expected {detail: string}');
    const detail: string = again.error.detail;
    expect(detail).toBe('Email already registered');

    const invalid = await anonymous.POST('/api/v1/auth/login', {
      body: { username: duplicate.email, password: '' },
      bodySerializer: (body) => formBody({ username: body.username }),
      headers: FORM,
    });
    expect(invalid.response.status).toBe(422);
    if (!invalid.error || !isValidationError(invalid.error)) throw new Error('expected the 422 issue list');
    const issues: ValidationIssue[] = invalid.error.detail;
    expect(issues).toEqual([{ loc: ['body', 'password'], msg: 'Field required', type: 'missing' }]);
  });

  it('rejects at compile time what the server would reject at run time', async () => {
    const incomplete = await anonymous.POST('/api/v1/users/register', {
      // @ts-expect-error full_name is required by the document, so the types refuse its absence
      body: { email: `typed-missing-${Date.now()}@example.com`, password: 'long enough 123' },
    });
    expect(incomplete.response.status).toBe(422);
    expect(incomplete.error).toEqual({
      detail: [expect.objectContaining({ loc: ['body', 'full_name'], type: 'missing' })],
    });
  });
});
