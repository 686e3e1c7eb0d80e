import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_PATHS } from '../../src/bootstrap/app-paths';
import { createTestApp, TestApp } from '../setup/test-app';

const WEB_DIST = join(__dirname, '..', '..', 'web', 'dist');

// Raw `sut.inject()` on purpose: the web app's pages and assets are not in the OpenAPI document.
/** The built web app served by the service at `/` (web/dist is built by the jest global setup). */
describe('the web app served at /', () => {
  let sut: TestApp;
  const indexHtml = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
  const script = readdirSync(join(WEB_DIST, 'assets')).find((name) => name.endsWith('.js'))!;

  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut?.close());

  it('answers index.html at / and at every app route, revalidated before each use', async () => {
    for (const pattern of APP_PATHS) {
      const path = pattern.replace(/:\w+/g, 'AAPL');
      const response = await sut.inject({ url: path });
      expect({ path, status: response.statusCode }).toEqual({ path, status: 200 });
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(indexHtml);
    }
  });

  it('runs under the service CSP: only module scripts of its own origin, no inline script', async () => {
    const response = await sut.inject({ url: '/' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.body).toMatch(
      new RegExp(`<script type="module" crossorigin src="/assets/${script}"></script>`),
    );
    expect(response.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(response.body).not.toMatch(/https?:\/\//);
  });

  it('serves hashed assets as immutable for a year, compressed', async () => {
    const response = await sut.inject({ url: `/assets/${script}`, headers: { 'accept-encoding': 'gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('gzip');
  });

  it("serves React's production build, even when a test run (NODE_ENV=test) built the app", async () => {
    const response = await sut.inject({ url: `/assets/${script}` });
    expect(response.body.includes('React DevTools for a better development experience')).toBe(false);
  });

  it.each([
    ['/api/v1/no-such-route', 404],
    ['/api/v1/portfolio', 401],
    ['/openapi.json', 200],
    ['/livez', 200],
    ['/no-such-page', 404],
    ['/dashboard/extra', 404],
    ['/holdings/AAPL/extra', 404],
    ['/assets/no-such-file.js', 404],
  ])('never answers %s with the app (%s with its own body)', async (url, status) => {
    const response = await sut.inject({ url, headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(status);
    expect(response.body).not.toBe(indexHtml);
    if (status === 404) expect(response.json()).toEqual({ detail: 'Not Found' });
  });

  it('leaves /docs to Swagger UI', async () => {
    const response = await sut.inject({ url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('swagger-ui');
    expect(response.body).not.toBe(indexHtml);
  });
});
