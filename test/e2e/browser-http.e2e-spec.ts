import { Logger } from '@nestjs/common';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { registerUser } from '../factories/users.factory';
import { readEventStream } from '../support/event-stream';
import { createTestApp, TestApp } from '../setup/test-app';

const ALLOWED = 'https://app.example.com';

// Raw `sut.app.inject()` on purpose: these tests read the wire itself (compressed bytes, caching and
// security headers, conditional requests), which the typed client decodes away.
/** What a browser meets on the HTTP surface beyond the routes themselves: CSP, caching, compression. */
describe('browser-grade HTTP', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ env: { CORS_ORIGINS: ALLOWED, TRUST_PROXY: '1' } });
  });
  afterAll(() => sut.close());

  const raw = (url: string, headers: Record<string, string> = {}) =>
    sut.app.inject({ method: 'GET', url, headers });

  describe('Content-Security-Policy', () => {
    it('does not upgrade the requests of a page served over plain HTTP (the docs on a LAN host name)', async () => {
      for (const url of ['/docs', '/api/v1/system/health']) {
        const response = await raw(url, { host: 'api.example.test:8000' });
        expect(response.headers['content-security-policy']).toBe(
          "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
            "img-src 'self' data:;object-src 'none';script-src 'self' 'unsafe-inline';script-src-attr 'none';" +
            "style-src 'self' 'unsafe-inline'",
        );
      }
    });

    it('upgrades them when the trusted proxy says the request came over HTTPS', async () => {
      const response = await raw('/docs', { 'x-forwarded-proto': 'https' });
      expect(String(response.headers['content-security-policy']).split(';').at(-1)).toBe(
        'upgrade-insecure-requests',
      );
    });
  });

  describe('Cache-Control', () => {
    it('marks the token responses of login and refresh no-store (RFC 6749 §5.1)', async () => {
      const user = await registerUser(sut);
      const login = await sut.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username: user.email, password: user.password },
      });
      expect(login.statusCode).toBe(200);
      expect([login.headers['cache-control'], login.headers.pragma]).toEqual(['no-store', 'no-cache']);
      const refresh = await sut.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        payload: { refresh_token: login.json().refresh_token },
      });
      expect(refresh.statusCode).toBe(200);
      expect([refresh.headers['cache-control'], refresh.headers.pragma]).toEqual(['no-store', 'no-cache']);
    });

    it('marks every answer to a request with credentials private, errors included', async () => {
      const user = await registerUser(sut);
      for (const url of [
        '/api/v1/auth/me',
        '/api/v1/portfolio/summary',
        '/api/v1/news/?limit=2',
        '/api/v1/nowhere',
      ]) {
        const response = await sut.inject({ url, headers: user.headers });
        expect({ url, cacheControl: response.headers['cache-control'] }).toEqual({
          url,
          cacheControl: 'private, no-cache',
        });
      }
      const badToken = await sut.inject({
        url: '/api/v1/auth/me',
        headers: { authorization: 'Bearer nope' },
      });
      expect([badToken.statusCode, badToken.headers['cache-control']]).toEqual([401, 'private, no-cache']);
    });

    it.each(['/openapi.json', '/docs', '/docs/swagger-ui-init.js', '/docs/swagger-ui-bundle.js'])(
      'lets a browser keep %s for five minutes, then revalidate it with its ETag (304)',
      async (url) => {
        const first = await raw(url);
        expect(first.statusCode).toBe(200);
        expect(first.headers['cache-control']).toBe('public, max-age=300');
        const etag = String(first.headers.etag);
        expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
        const again = await raw(url, { 'if-none-match': etag });
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe('');
        const changed = await raw(url, { 'if-none-match': 'W/"another"' });
        expect(changed.statusCode).toBe(200);
      },
    );
  });

  describe('compression', () => {
    it('sends the docs bundle in brotli or gzip, as the client accepts, and plain otherwise', async () => {
      const plain = await raw('/docs/swagger-ui-bundle.js');
      expect(plain.headers['content-encoding']).toBeUndefined();
      const original = plain.rawPayload;
      expect(original.length).toBeGreaterThan(1_000_000);

      const br = await raw('/docs/swagger-ui-bundle.js', { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.rawPayload.length).toBeLessThan(original.length / 3);
      expect(brotliDecompressSync(br.rawPayload).equals(original)).toBe(true);

      const gzip = await raw('/docs/swagger-ui-bundle.js', { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).equals(original)).toBe(true);
    });

    it('compresses a 50-item news list and the OpenAPI document, not a small answer', async () => {
      const user = await registerUser(sut);
      const list = await sut.app.inject({
        url: '/api/v1/news/?limit=50',
        headers: { ...user.headers, 'accept-encoding': 'br' },
      });
      expect(list.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(list.rawPayload).toString()).length).toBe(50);

      const document = await raw('/openapi.json', { 'accept-encoding': 'gzip' });
      expect(document.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(document.rawPayload).toString()).openapi).toMatch(/^3\./);

      const small = await raw('/api/v1/system/health', { 'accept-encoding': 'br, gzip' });
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.json().status).toBe('healthy');
    });

    it('never compresses an event stream', async () => {
      const base = await sut.listen();
      const user = await registerUser(sut);
      const stream = await fetch(`${base}/api/v1/assistant/chat`, {
        method: 'POST',
        headers: {
          ...user.headers,
          accept: 'text/event-stream',
          'accept-encoding': 'br, gzip',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ message: 'What is the market doing today? Tell me everything about it.' }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.headers.get('content-encoding')).toBeNull();
      expect(await stream.text()).toMatch(/event: done\n/);
    });
  });
});

describe('a chat stream that fails after it started', () => {
  let sut: TestApp;
  let base: string;

  beforeAll(async () => {
    sut = await createTestApp();
    base = await sut.listen();
  });
  afterAll(() => sut.close());

  it('ends with event: error, is logged with the request id and counted among the 5xx in /metrics', async () => {
    const user = await registerUser(sut);
    await sut.app.get(DataSource).query('DROP TABLE assistant_messages CASCADE');
    const logged = jest.spyOn(Logger.prototype, 'error');
    try {
      const events = await readEventStream(`${base}/api/v1/assistant/chat`, {
        headers: { ...user.headers, accept: 'text/event-stream', 'x-request-id': 'stream-failure-1' },
        body: { message: 'How is the market today?' },
      });
      expect(events.status).toBe(200);
      expect(events.events.at(-1)).toEqual({
        event: 'error',
        data: { detail: 'Internal server error occurred' },
      });
      expect(logged).toHaveBeenCalledWith(
        expect.objectContaining({ requestId: 'stream-failure-1', status: 500, err: expect.any(Error) }),
        'The event stream failed after it started',
      );
    } finally {
      logged.mockRestore();
    }
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain(
      'http_requests_total{method="POST",route="/api/v1/assistant/chat",status="500"} 1',
    );
    expect(metrics).not.toContain(
      'http_requests_total{method="POST",route="/api/v1/assistant/chat",status="200"}',
    );
  });
});
