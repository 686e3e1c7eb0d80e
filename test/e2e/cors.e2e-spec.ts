import { registerUser } from '../factories/users.factory';
import { createTestApp, TestApp } from '../setup/test-app';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.com';

// Raw `sut.app.inject()` on purpose: preflights (OPTIONS) and Origin headers are not operations of
// the OpenAPI document, and every route is reached by the method and URL the document lists.

interface Route {
  method: string;
  url: string;
}

/** Every operation of the OpenAPI document, its path parameters filled with a plausible value. */
function routesOf(document: { paths: Record<string, Record<string, unknown>> }): Route[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => ({
      method: method.toUpperCase(),
      url: path.replace(/\{[^}]+\}/g, '1'),
    })),
  );
}

const listOf = (header: unknown): string[] => String(header).toLowerCase().split(/,\s*/);

function corsHeadersOf(headers: Record<string, unknown>): string[] {
  return Object.keys(headers).filter((name) => name.startsWith('access-control-'));
}

describe('CORS for a browser client', () => {
  let sut: TestApp;
  let routes: Route[];

  beforeAll(async () => {
    sut = await createTestApp({ env: { CORS_ORIGINS: `${ALLOWED}, https://admin.example.com` } });
    routes = routesOf((await sut.inject({ url: '/openapi.json' })).json());
  });
  afterAll(() => sut.close());

  it('covers every method the API uses', () => {
    expect(new Set(routes.map((route) => route.method))).toEqual(
      new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    );
  });

  it('lets an allowed origin preflight every route with its method, a token and a JSON body', async () => {
    for (const route of routes) {
      const response = await sut.app.inject({
        method: 'OPTIONS',
        url: route.url,
        headers: {
          origin: ALLOWED,
          'access-control-request-method': route.method,
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      const context = `${route.method} ${route.url}`;
      expect({ context, status: response.statusCode }).toEqual({ context, status: 204 });
      expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(response.headers['access-control-allow-credentials']).toBe('true');
      expect(listOf(response.headers['access-control-allow-methods'])).toContain(route.method.toLowerCase());
      expect(listOf(response.headers['access-control-allow-headers'])).toEqual(
        expect.arrayContaining(['authorization', 'content-type']),
      );
      expect(response.headers['access-control-max-age']).toBe('7200');
    }
  });

  it('answers the second configured origin too', async () => {
    const response = await sut.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/preferences/',
      headers: { origin: 'https://admin.example.com', 'access-control-request-method': 'DELETE' },
    });
    expect(response.headers['access-control-allow-origin']).toBe('https://admin.example.com');
  });

  it('gives a disallowed origin no CORS header at all, on preflights and on requests', async () => {
    for (const route of routes) {
      const preflight = await sut.app.inject({
        method: 'OPTIONS',
        url: route.url,
        headers: { origin: OTHER, 'access-control-request-method': route.method },
      });
      expect({ route, headers: corsHeadersOf(preflight.headers) }).toEqual({ route, headers: [] });
    }
    const request = await sut.app.inject({ url: '/api/v1/system/health', headers: { origin: OTHER } });
    expect(corsHeadersOf(request.headers)).toEqual([]);
  });

  it('lets the page read X-Request-Id and Retry-After from actual responses', async () => {
    const user = await registerUser(sut);
    const response = await sut.app.inject({
      method: 'DELETE',
      url: '/api/v1/portfolio/transactions/999',
      headers: { origin: ALLOWED, authorization: user.headers.authorization },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(listOf(response.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining(['x-request-id', 'retry-after']),
    );
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('CORS without CORS_ORIGINS', () => {
  it('sends no CORS header to any origin', async () => {
    const sut = await createTestApp({ env: { CORS_ORIGINS: '' } });
    try {
      const preflight = await sut.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/preferences/',
        headers: { origin: ALLOWED, 'access-control-request-method': 'PUT' },
      });
      expect(corsHeadersOf(preflight.headers)).toEqual([]);
    } finally {
      await sut.close();
    }
  });
});

describe('CORS_ORIGINS=*', () => {
  it('answers any origin with a literal * and never allows credentials', async () => {
    const sut = await createTestApp({ env: { CORS_ORIGINS: '*' } });
    try {
      for (const origin of [OTHER, 'null']) {
        const preflight = await sut.app.inject({
          method: 'OPTIONS',
          url: '/api/v1/preferences/',
          headers: { origin, 'access-control-request-method': 'PUT' },
        });
        expect(preflight.headers['access-control-allow-origin']).toBe('*');
        expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
        const simple = await sut.app.inject({ url: '/api/v1/system/health', headers: { origin } });
        expect(simple.headers['access-control-allow-origin']).toBe('*');
        expect(simple.headers['access-control-allow-credentials']).toBeUndefined();
      }
    } finally {
      await sut.close();
    }
  });
});
