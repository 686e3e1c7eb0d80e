import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerUser } from '../factories/users.factory';
import { httpCall } from '../setup/http-call';
import { createTestApp, TestApp } from '../setup/test-app';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text exposition format: `name{label="value",...} number` per sample line. */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`Not an exposition line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;

const METRICS_TOKEN = 'scraper-token-0123456789abcdef';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const NOT_FOUND = { detail: 'Not Found' };
const UNAUTHENTICATED = { detail: 'Could not validate credentials' };

/** A port nothing listens on right now, for METRICS_PORT. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('GET /metrics', () => {
  let sut: TestApp;
  let base: string;

  beforeAll(async () => {
    sut = await createTestApp({ env: { METRICS_TOKEN } });
    base = await sut.listen();
  });
  afterAll(() => sut.close());

  async function scrape(): Promise<Sample[]> {
    const response = await fetch(`${base}/metrics`, {
      headers: bearer(METRICS_TOKEN),
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(await response.text());
  }

  it('counts requests by route template and status, with latency histograms', async () => {
    const { headers } = await registerUser(sut);
    for (let call = 0; call < 3; call += 1) await httpCall(`${base}/api/v1/market/stock/AAPL`, { headers });
    await httpCall(`${base}/api/v1/market/stock/MSFT`, { headers });
    await httpCall(`${base}/api/v1/no-such-route`);
    const samples = await scrape();
    const quote = { method: 'GET', route: '/api/v1/market/stock/:symbol', status: '200' };
    expect(valueOf(samples, 'http_requests_total', quote)).toBe(4);
    expect(valueOf(samples, 'http_request_duration_seconds_count', quote)).toBe(4);
    expect(valueOf(samples, 'http_request_duration_seconds_bucket', { ...quote, le: '+Inf' })).toBe(4);
    expect(valueOf(samples, 'http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
  });

  it('reports provider calls, provider-cache hits and misses, pool, Redis and event-loop lag', async () => {
    const samples = await scrape();
    expect(valueOf(samples, 'provider_calls_total', { provider: 'replay', outcome: 'ok' })).toBeGreaterThan(
      0,
    );
    expect(valueOf(samples, 'provider_cache_requests_total', { result: 'hit' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'provider_cache_requests_total', { result: 'miss' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'provider_call_duration_seconds_count', { provider: 'replay' })).toBeGreaterThan(
      0,
    );
    const localAnswers = { cache: 'provider-local-answers' };
    expect(valueOf(samples, 'cache_requests_total', { ...localAnswers, result: 'hit' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'cache_requests_total', { ...localAnswers, result: 'miss' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'cache_evictions_total', localAnswers)).toBe(0);
    expect(valueOf(samples, 'cache_size', localAnswers)).toBeGreaterThan(0);
    expect(valueOf(samples, 'cache_capacity', localAnswers)).toBeGreaterThan(
      valueOf(samples, 'cache_size', localAnswers)!,
    );
    expect(valueOf(samples, 'db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(valueOf(samples, 'redis_up')).toBe(process.env.TEST_REDIS_URL ? 1 : undefined);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it("counts the portfolio read model's caches by name: hits, misses, size and bound", async () => {
    const { headers } = await registerUser(sut);
    const trade = await httpCall(`${base}/api/v1/portfolio/transactions`, {
      method: 'POST',
      headers,
      body: { symbol: 'AAPL', side: 'buy', quantity: 2, price: 150, executed_at: '2025-01-06T15:00:00Z' },
    });
    expect(trade.status).toBe(201);
    // The first read computes what the second finds.
    for (let call = 0; call < 2; call += 1) {
      expect((await httpCall(`${base}/api/v1/portfolio/summary`, { headers })).status).toBe(200);
      expect((await httpCall(`${base}/api/v1/portfolio/lots`, { headers })).status).toBe(200);
      expect((await httpCall(`${base}/api/v1/portfolio/realized`, { headers })).status).toBe(200);
    }
    const samples = await scrape();
    for (const cache of [
      'portfolio-replays',
      'portfolio-sectors',
      'portfolio-performance',
      'portfolio-lots',
      'portfolio-valued-lots',
      'portfolio-realized',
      'portfolio-serialized-rows',
    ]) {
      expect([
        valueOf(samples, 'cache_requests_total', { cache, result: 'hit' })! > 0,
        valueOf(samples, 'cache_requests_total', { cache, result: 'miss' })! > 0,
        valueOf(samples, 'cache_capacity', { cache })! > valueOf(samples, 'cache_size', { cache })!,
      ]).toEqual([true, true, true]);
    }
  });

  it('answers a repeated value-history read from the kept chart: one miss, then hits', async () => {
    const { headers } = await registerUser(sut);
    const trade = await httpCall(`${base}/api/v1/portfolio/transactions`, {
      method: 'POST',
      headers,
      body: { symbol: 'MSFT', side: 'buy', quantity: 1, price: 400, executed_at: '2025-01-06T15:00:00Z' },
    });
    expect(trade.status).toBe(201);
    const cache = 'portfolio-history';
    const counted = (samples: Sample[]) =>
      ['hit', 'miss'].map((result) => valueOf(samples, 'cache_requests_total', { cache, result }) ?? 0);
    const [hitsBefore, missesBefore] = counted(await scrape());
    // Only as_of, the instant of the read, differs between the answers.
    const charts: unknown[] = [];
    for (let call = 0; call < 3; call += 1) {
      const response = await httpCall(`${base}/api/v1/portfolio/history?period=3M`, { headers });
      expect(response.status).toBe(200);
      const { as_of: _asOf, ...chart } = response.body as { as_of: string };
      charts.push(chart);
    }
    const [hits, misses] = counted(await scrape());
    expect([hits - hitsBefore, misses - missesBefore]).toEqual([2, 1]);
    expect(charts[1]).toEqual(charts[0]);
    expect(charts[2]).toEqual(charts[0]);
  });

  it("counts the replay's shared daily bars: a ledger starting on another day finds its symbol's bars", async () => {
    for (const executedAt of ['2025-01-06T15:00:00Z', '2025-02-03T15:00:00Z']) {
      const { headers } = await registerUser(sut);
      const trade = await httpCall(`${base}/api/v1/portfolio/transactions`, {
        method: 'POST',
        headers,
        body: { symbol: 'KO', side: 'buy', quantity: 3, price: 60, executed_at: executedAt },
      });
      expect(trade.status).toBe(201);
      expect((await httpCall(`${base}/api/v1/portfolio/summary`, { headers })).status).toBe(200);
    }
    const samples = await scrape();
    const cache = 'replay-daily-bars';
    expect(valueOf(samples, 'cache_requests_total', { cache, result: 'hit' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'cache_requests_total', { cache, result: 'miss' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'cache_size', { cache })).toBeGreaterThan(0);
    expect(valueOf(samples, 'cache_capacity', { cache })).toBeGreaterThan(
      valueOf(samples, 'cache_size', { cache })!,
    );
  });

  it('counts login lockout rejections', async () => {
    const attempt = () =>
      httpCall(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'username=nobody%40example.com&password=wrong-password',
      });
    const statuses = [];
    // The lockout allows 10 failures per (email, client address) and window.
    for (let call = 0; call < 12; call += 1) statuses.push((await attempt()).status);
    expect(statuses.slice(9)).toEqual([401, 429, 429]);
    expect(valueOf(await scrape(), 'throttle_rejections_total', { route: '/api/v1/auth/login' })).toBe(2);
  });
});

describe('who may read /metrics (issue 29)', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.map((app) => app.close()));
    apps.length = 0;
  });
  const start = async (env: Record<string, string>) => {
    const app = await createTestApp({ env: { METRICS_TOKEN: '', METRICS_PORT: '', ...env } });
    apps.push(app);
    return app.listen();
  };

  it('with METRICS_TOKEN, answers only a bearer of that token', async () => {
    const base = await start({ METRICS_TOKEN });
    const anonymous = await httpCall(`${base}/metrics`);
    expect([anonymous.status, anonymous.body]).toEqual([401, UNAUTHENTICATED]);
    const wrong = await fetch(`${base}/metrics`, { headers: bearer(`${METRICS_TOKEN}x`) });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    const right = await fetch(`${base}/metrics`, { headers: bearer(METRICS_TOKEN) });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('http_requests_total');
  });

  it('with METRICS_PORT, serves it there only (and asks for the token there when one is set)', async () => {
    const metricsPort = await freePort();
    const base = await start({ METRICS_PORT: String(metricsPort), METRICS_TOKEN });
    const onAppPort = await httpCall(`${base}/metrics`, { headers: bearer(METRICS_TOKEN) });
    expect([onAppPort.status, onAppPort.body]).toEqual([404, NOT_FOUND]);
    const metricsBase = `http://127.0.0.1:${metricsPort}`;
    const anonymous = await httpCall(`${metricsBase}/metrics`);
    expect([anonymous.status, anonymous.body]).toEqual([401, UNAUTHENTICATED]);
    const scraped = await fetch(`${metricsBase}/metrics`, { headers: bearer(METRICS_TOKEN) });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await scraped.text()).toContain('nodejs_eventloop_lag_seconds');
    const elsewhere = await httpCall(`${metricsBase}/api/v1/system/health`);
    expect([elsewhere.status, elsewhere.body]).toEqual([404, NOT_FOUND]);
  });

  it('with METRICS_PORT alone, answers anyone who reaches that port', async () => {
    const metricsPort = await freePort();
    await start({ METRICS_PORT: String(metricsPort) });
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
  });

  it('in production without either, is not served at all', async () => {
    const base = await start({ NODE_ENV: 'production' });
    const answer = await httpCall(`${base}/metrics`);
    expect([answer.status, answer.body]).toEqual([404, NOT_FOUND]);
  });
});
