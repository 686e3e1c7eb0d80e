import { DataSource } from 'typeorm';
import { login, registerUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';
import { typedApi } from '../support/typed-api';
import type { ApiClient } from '../../client';

describe('health, docs and cross-cutting HTTP behaviour', () => {
  let sut: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    sut = await createTestApp({ env: { CORS_ORIGINS: 'https://app.example.com' } });
    api = typedApi(sut);
  });
  afterAll(() => sut.close());

  it('GET /api/v1/system/health is public and reports a connected database and market graph', async () => {
    // The market graph builds in the background after boot: degraded until then.
    let health = await api.GET('/api/v1/system/health');
    for (let tries = 0; health.data?.services.graph_database !== 'connected' && tries < 100; tries += 1) {
      expect(health.data?.services.graph_database).toBe('degraded');
      await new Promise((resolve) => setTimeout(resolve, 200));
      health = await api.GET('/api/v1/system/health');
    }
    expect(health.response.status).toBe(200);
    expect(health.data).toEqual({
      status: 'healthy',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      services: {
        database: 'connected',
        graph_database: 'connected',
        market_data: 'active',
        ai_service: 'ready',
      },
      version: require('../../package.json').version,
    });
  });

  it('serves Swagger UI at /docs and the OpenAPI document at /openapi.json with the bearer scheme', async () => {
    // The documentation's own routes are not operations of the document.
    const ui = await sut.inject({ url: '/docs' });
    expect(ui.statusCode).toBe(200);
    const spec = (await sut.inject({ url: '/openapi.json' })).json();
    expect(spec.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const path of [
      '/api/v1/users/register',
      '/api/v1/auth/login',
      '/api/v1/admin/users/{user_id}',
      '/api/v1/system/health',
    ]) {
      expect(spec.paths).toHaveProperty([path]);
    }
  });

  it('sends security headers and echoes a request id', async () => {
    const { response } = await api.GET('/api/v1/system/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).not.toBeNull();
    expect(response.headers.get('x-request-id')).toBe('abc-123');
    const generated = await api.GET('/api/v1/system/health');
    expect(generated.response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('takes a request id of at most 128 characters of [A-Za-z0-9._-] from the client, and generates one for anything else', async () => {
    const longest = `${'a'.repeat(125)}._-`;
    const kept = await api.GET('/livez', { headers: { 'x-request-id': longest } });
    expect(kept.response.headers.get('x-request-id')).toBe(longest);
    for (const refused of [
      'a'.repeat(129),
      'x'.repeat(15_000),
      'two words',
      'id\u00e9',
      'a/b',
      '<script>',
      '',
    ]) {
      const { response } = await api.GET('/livez', { headers: { 'x-request-id': refused } });
      expect(response.headers.get('x-request-id')).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    }
  });

  it('sends exactly the security headers helmet 8 sends, on routes, errors and docs, but not on preflights', async () => {
    const expected = {
      'content-security-policy':
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
        "img-src 'self' data:;object-src 'none';script-src 'self' 'unsafe-inline';script-src-attr 'none';" +
        "style-src 'self' 'unsafe-inline'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    // Raw: the order of the headers on the wire is asserted, and two of the routes are outside the document.
    for (const url of ['/api/v1/system/health', '/api/v1/auth/me', '/api/v1/nowhere', '/docs']) {
      const response = await sut.inject({ url });
      const security = Object.keys(response.headers).filter((name) => name in expected);
      expect(security).toEqual(Object.keys(expected));
      expect(response.headers).toMatchObject(expected);
    }
    const preflight = await sut.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/auth/me',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers['content-security-policy']).toBeUndefined();
  });

  it('answers 415 with the error shape for a body type it does not read', async () => {
    // A content type the route does not declare: a request the typed client refuses to build.
    const response = await sut.inject({
      method: 'POST',
      url: '/api/v1/users/register',
      payload: '<user/>',
      headers: { 'content-type': 'text/xml' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ detail: 'Unsupported media type: text/xml' });
  });

  it('answers CORS preflights for configured origins only', async () => {
    // Preflights are not operations of the document.
    const allowed = await sut.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/auth/me',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const other = await sut.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/auth/me',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers 503 unhealthy with a disconnected database when the database is gone', async () => {
    const probe = await createTestApp();
    await probe.app.get(DataSource).destroy();
    const { response, error } = await typedApi(probe).GET('/api/v1/system/health');
    expect(response.status).toBe(503);
    expect(error).toMatchObject({ status: 'unhealthy', services: { database: 'disconnected' } });
    await probe.close();
  });

  it('answers unexpected failures with 500 and the generic detail, never the cause', async () => {
    const probe = await createTestApp();
    const user = await registerUser(probe);
    await probe.app.get(DataSource).query('DROP TABLE sessions CASCADE');
    const { response, error } = await typedApi(probe).POST('/api/v1/auth/login', {
      body: { username: user.email, password: user.password },
    });
    expect(response.status).toBe(500);
    expect(error).toEqual({ detail: 'Internal server error occurred' });
    await probe.close();
  });
});

describe('embedded database persistence and boot-time superuser', () => {
  it('keeps data across a restart and creates FIRST_SUPERUSER once', async () => {
    const env = { FIRST_SUPERUSER_EMAIL: 'Root@Example.com', FIRST_SUPERUSER_PASSWORD: 'root password 123' };
    const first = await createTestApp({ env });
    const user = await registerUser(first, { email: 'survivor@example.com' });
    await first.app.close();

    const second = await createTestApp({ env, database: first.database });
    try {
      await expect(login(second, user.email, user.password)).resolves.toHaveProperty('accessToken');
      const root = await login(second, 'root@example.com', 'root password 123');
      const users = await typedApi(second, root).GET('/api/v1/admin/users');
      expect(users.response.status).toBe(200);
      const roots = users.data?.filter((entry) => entry.email === 'root@example.com');
      expect(roots).toEqual([expect.objectContaining({ is_superuser: true, is_active: true })]);
    } finally {
      await second.close();
      await first.database.drop();
    }
  });
});
