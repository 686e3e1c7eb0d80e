import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DOCUMENT_FILE } from '../../scripts/openapi-client';
import { createSuperuser, registerUser, TestUser } from '../factories/users.factory';
import { createTestApp, InjectOptions, TestApp } from '../setup/test-app';
import { typedApi } from '../support/typed-api';

interface Response {
  description: string;
  content?: Record<string, { schema: { $ref?: string } }>;
  headers?: Record<string, unknown>;
}
interface Operation {
  operationId: string;
  tags: string[];
  security: Record<string, string[]>[];
  responses: Record<string, Response>;
  requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
}
interface Document {
  info: { license?: { name: string; url: string } };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
}

const REGENERATE = 'out of date: run `npm run client:generate` and commit client/';
/** Health reports answer 503 with their own body (the report), not HTTPError. */
const HEALTH_REPORTS = ['/api/v1/system/health', '/readyz'];

function operations(document: Document): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** The operation a concrete request reaches, by matching its path against the templates. */
function operationFor(document: Document, method: string, url: string): Operation {
  const path = url.split('?')[0].replace(/\/$/, '');
  const match = operations(document).find(
    (entry) =>
      entry.method === method && new RegExp(`^${entry.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
  if (!match) throw new Error(`No operation for ${method} ${url}`);
  return match.operation;
}

// Raw `sut.inject()` on purpose where the document itself drives the request (every operation with
// its placeholders filled, the error table's malformed bodies and undeclared content types), for
// the bytes Swagger UI posts, and for what the document does not describe (/openapi.json, /docs);
// the rest goes through the typed client.
describe('the OpenAPI document as a contract', () => {
  let sut: TestApp;
  let document: Document;
  let user: TestUser;
  let superuser: TestUser;

  beforeAll(async () => {
    sut = await createTestApp();
    document = (await sut.inject({ url: '/openapi.json' })).json();
    user = await registerUser(sut);
    superuser = await createSuperuser(sut);
  });
  afterAll(() => sut.close());

  it('is the committed client/openapi.json, from which client/schema.d.ts is generated', () => {
    const committed = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8'));
    expect({ [`client/openapi.json ${REGENERATE}`]: document }).toEqual({
      [`client/openapi.json ${REGENERATE}`]: committed,
    });
    // openapi-typescript --check regenerates the types from client/openapi.json (redocly.yaml) and
    // exits non-zero when client/schema.d.ts differs.
    expect(() =>
      execFileSync('npm', ['run', '--silent', 'client:types', '--', '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });

  it('declares a licence, a server, the login flow and every tag it uses, each described', () => {
    expect(document.info.license).toEqual({ name: 'MIT', url: 'https://opensource.org/licenses/MIT' });
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(document.components.securitySchemes).toMatchObject({
      OAuth2PasswordBearer: {
        type: 'oauth2',
        flows: { password: { tokenUrl: '/api/v1/auth/login', scopes: {} } },
      },
      bearer: { type: 'http', scheme: 'bearer' },
    });
    const declared = new Map(document.tags.map((tag) => [tag.name, tag.description]));
    for (const { operation } of operations(document)) {
      for (const tag of operation.tags)
        expect({ tag, description: declared.get(tag) }).toEqual({
          tag,
          description: expect.any(String),
        });
    }
  });

  it('gives every error response the HTTPError or HTTPValidationError body', () => {
    expect(document.components.schemas).toMatchObject({
      HTTPError: { required: ['detail'], properties: { detail: { type: 'string' } } },
      HTTPValidationError: {
        required: ['detail'],
        properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationIssue' } } },
      },
      ValidationIssue: { required: ['loc', 'msg', 'type'] },
    });
    for (const { method, path, operation } of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400 || (HEALTH_REPORTS.includes(path) && status === '503')) continue;
        const expected = status === '422' ? 'HTTPValidationError' : 'HTTPError';
        expect({ method, path, status, schema: response.content?.['application/json'].schema.$ref }).toEqual({
          method,
          path,
          status,
          schema: `#/components/schemas/${expected}`,
        });
      }
    }
  });

  it('marks public operations `security: []` and answers every other one 401 without a token', async () => {
    const publicOperations = operations(document).filter(({ operation }) => operation.security.length === 0);
    expect(publicOperations.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      'GET /api/v1/news/items/{id}',
      'GET /api/v1/notifications/unsubscribe',
      'GET /api/v1/system/health',
      'GET /livez',
      'GET /metrics',
      'GET /readyz',
      'POST /api/v1/auth/login',
      'POST /api/v1/auth/refresh',
      'POST /api/v1/users/register',
    ]);
    for (const { method, path, operation } of operations(document)) {
      if (operation.security.length === 0) continue;
      expect(operation.security).toEqual([{ OAuth2PasswordBearer: [] }, { bearer: [] }]);
      expect(operation.responses['401'].headers).toHaveProperty('WWW-Authenticate');
      const response = await sut.inject({
        method: method as InjectOptions['method'],
        url: path.replace(/\{[^}]+\}/g, '1'),
      });
      expect({ method, path, status: response.statusCode, body: response.json() }).toEqual({
        method,
        path,
        status: 401,
        body: { detail: 'Could not validate credentials' },
      });
    }
  });

  it("declares logout's body optional: the interface's logout takes none", () => {
    expect(operationFor(document, 'POST', '/api/v1/auth/logout').requestBody).toMatchObject({
      required: false,
    });
  });

  it("declares the broker import's body optional, a multipart file or the CSV text itself", () => {
    // Committing a preview sends no file; a text/csv body is the file's text, not a form.
    const body = operationFor(document, 'POST', '/api/v1/portfolio/import').requestBody;
    expect(body?.required).toBe(false);
    const content = body?.content ?? {};
    expect(Object.keys(content)).toEqual(['multipart/form-data', 'text/csv']);
    expect(content['multipart/form-data'].schema).toMatchObject({
      type: 'object',
      properties: { file: { type: 'string', format: 'binary' } },
    });
    expect(content['text/csv'].schema).toMatchObject({ type: 'string' });
  });

  it('declares Retry-After on the 429 of login', () => {
    const tooMany = operationFor(document, 'POST', '/api/v1/auth/login').responses['429'];
    expect(tooMany.headers).toMatchObject({ 'Retry-After': { schema: { type: 'integer' } } });
  });

  const form = (fields: Record<string, string>): Partial<InjectOptions> => ({
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

  // Each request gets the status named, which its operation declares with the body the service sends.
  const cases: [number, InjectOptions['method'], string, (who: () => TestUser) => Partial<InjectOptions>][] =
    [
      [422, 'POST', '/api/v1/auth/login', () => form({ username: 'someone@example.com' })],
      [
        422,
        'POST',
        '/api/v1/auth/logout-all',
        (who) => ({
          payload: '{"broken',
          headers: { ...who().headers, 'content-type': 'application/json' },
        }),
      ],
      [422, 'GET', '/api/v1/admin/users?limit=0', () => ({ headers: superuser.headers })],
      [422, 'GET', '/api/v1/admin/users/abc', () => ({ headers: superuser.headers })],
      [
        422,
        'GET',
        '/api/v1/market/stock/AAPL/history?interval=hourly',
        (who) => ({ headers: who().headers }),
      ],
      [422, 'GET', '/api/v1/market/stocks/batch?symbols=', (who) => ({ headers: who().headers })],
      [422, 'DELETE', '/api/v1/portfolio/transactions/abc', (who) => ({ headers: who().headers })],
      [422, 'GET', '/api/v1/portfolio/transactions?limit=0', (who) => ({ headers: who().headers })],
      [
        413,
        'POST',
        '/api/v1/users/register',
        () => ({
          payload: { email: 'big@example.com', password: 'x'.repeat(2 * 1024 * 1024), full_name: 'Big' },
        }),
      ],
      [
        415,
        'POST',
        '/api/v1/news/sentiment',
        (who) => ({
          payload: '<texts/>',
          headers: { ...who().headers, 'content-type': 'application/xml' },
        }),
      ],
      [403, 'GET', '/api/v1/admin/users', (who) => ({ headers: who().headers })],
      [404, 'DELETE', '/api/v1/portfolio/transactions/999999', (who) => ({ headers: who().headers })],
      [400, 'GET', '/api/v1/preferences/defaults/expert', (who) => ({ headers: who().headers })],
      [404, 'GET', '/api/v1/market/stock/ZZZZZZ', (who) => ({ headers: who().headers })],
    ];

  it('declares the 403 and the 400 a deactivated account gets', async () => {
    const gone = await registerUser(sut);
    const deactivated = await typedApi(sut, superuser).PATCH('/api/v1/admin/users/{user_id}/deactivate', {
      params: { path: { user_id: gone.id } },
    });
    expect(deactivated.response.status).toBe(200);
    const forbidden = await typedApi(sut, gone).GET('/api/v1/preferences');
    expect({ status: forbidden.response.status, body: forbidden.error }).toEqual({
      status: 403,
      body: { detail: 'Inactive user' },
    });
    expect(operationFor(document, 'GET', '/api/v1/preferences').responses['403'].description).toContain(
      '`Inactive user`',
    );
    const refresh = await typedApi(sut).POST('/api/v1/auth/refresh', {
      body: { refresh_token: gone.refreshToken },
    });
    expect({ status: refresh.response.status, body: refresh.error }).toEqual({
      status: 400,
      body: { detail: 'Inactive user' },
    });
    expect(operationFor(document, 'POST', '/api/v1/auth/refresh').responses['400'].description).toBe(
      '`Inactive user`',
    );
  });

  it.each(cases)('declares %p for %s %s with its error body', async (status, method, url, options) => {
    const response = await sut.inject({ method, url, ...options(() => user) });
    expect(response.statusCode).toBe(status);
    const declared = operationFor(document, method ?? 'GET', url).responses[String(status)];
    expect(declared).toBeDefined();
    const body = response.json();
    if (status === 422) {
      expect(declared.content?.['application/json'].schema.$ref).toBe(
        '#/components/schemas/HTTPValidationError',
      );
      expect(body.detail).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            loc: expect.any(Array),
            msg: expect.any(String),
            type: expect.any(String),
          }),
        ]),
      );
    } else {
      expect(declared.content?.['application/json'].schema.$ref).toBe('#/components/schemas/HTTPError');
      expect(body).toEqual({ detail: expect.any(String) });
    }
  });
});

describe('Swagger UI', () => {
  it('logs in with email and password the way its OAuth2 password flow posts them, and remembers it', async () => {
    const sut = await createTestApp();
    try {
      const user = await registerUser(sut);
      const token = await sut.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: new URLSearchParams({
          grant_type: 'password',
          username: user.email,
          password: user.password,
          scope: '',
        }).toString(),
        // Swagger UI's default: the (empty) client id and secret in a Basic header.
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(':').toString('base64')}`,
        },
      });
      expect(token.statusCode).toBe(200);
      expect(token.json()).toMatchObject({ access_token: expect.any(String), token_type: 'bearer' });
      const init = await sut.inject({ url: '/docs/swagger-ui-init.js' });
      expect(init.statusCode).toBe(200);
      expect(init.body).toMatch(/"persistAuthorization":\s*true/);
    } finally {
      await sut.close();
    }
  });

  it('is off with DOCS_ENABLED=false: /docs and /openapi.json are 404', async () => {
    const sut = await createTestApp({ env: { DOCS_ENABLED: 'false' } });
    try {
      for (const url of ['/docs', '/openapi.json']) {
        const response = await sut.inject({ url });
        expect({ url, status: response.statusCode, body: response.json() }).toEqual({
          url,
          status: 404,
          body: { detail: 'Not Found' },
        });
      }
    } finally {
      await sut.close();
    }
  });
});
