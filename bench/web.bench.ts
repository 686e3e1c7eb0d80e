// The web app's budgets (issue 26), on the built app served by the service on loopback, in
// Debian's Chromium (playwright-core, /usr/bin/chromium):
//
// - initial JavaScript ≤ 250 KB compressed: the script bytes a first visit of the dashboard
//   transfers, as the browser received them (encoded body sizes, the service's compression);
// - dashboard interactive ≤ 1.5 s after navigation with a 5,000-transaction ledger: a fresh
//   browser context (empty cache) opens /dashboard signed in (a refresh token in the tab's
//   sessionStorage, as after a reload) until the totals, the value history and the allocation
//   are rendered; the baseline, in the same loads, is the app's first render (its scripts
//   fetched and run, before any data);
// - no request waterfall longer than two round trips for the dashboard: the longest chain of API
//   requests each started after the one before it finished, the longest over those loads (the
//   document and its scripts are counted apart: they come before any script can ask anything).
//
// BENCH_WEB_ROUNDS (default 7) loads per figure; BENCH_PORT_BASE (default 7800) the service's port.
import { cpus, loadavg } from 'node:os';
import { Browser, chromium, Request } from 'playwright-core';
import { figureOf, reporter } from './bench-kit';
import { build, embeddedMode } from './http/modes';
import { call, seedPortfolio, Session, signUp, TRADES } from './http/seed';
import { startService } from './http/service';

// The page globals the functions run in the page use.
declare const window: {
  shellAt?: number;
  readyAt?: number;
  sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
};

const CHROMIUM = '/usr/bin/chromium';
const ROUNDS = Number(process.env.BENCH_WEB_ROUNDS ?? 7);
const PORT = Number(process.env.BENCH_PORT_BASE ?? 7800);
const JS_BUDGET_BYTES = 250_000;
const INTERACTIVE_BUDGET_MS = 1_500;
const ROUND_TRIPS_BUDGET = 2;

/** What the dashboard shows once its data is in: the totals, the value history's text, the allocation. */
const DASHBOARD_READY = [
  '[aria-label="Totals"]',
  '[data-testid="history-summary"]',
  '[aria-label="Weight of each holding"]',
];

/** A request as the browser timed it: start and end in epoch milliseconds. */
interface Timed {
  url: string;
  type: string;
  start: number;
  end: number;
  encodedBytes: number;
}

/**
 * Installed before any script of the page: notes performance.now() (milliseconds since the
 * navigation started) when the app first renders anything (its scripts have run: the baseline)
 * and when every selector of `ready` matches. Source text, not a function: tsx would wrap the
 * inner functions in a helper the page does not have.
 */
const markWhenReady = (ready: string[]) => `{
  const ready = ${JSON.stringify(ready)};
  const observer = new MutationObserver(() => {
    if (window.shellAt === undefined && document.querySelector('#root > *') !== null) window.shellAt = performance.now();
    if (!ready.every((selector) => document.querySelector(selector) !== null)) return;
    window.readyAt = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}`;

/** The finished requests with the browser's timing and their bytes as transferred (encoded). */
async function timed(requests: Request[]): Promise<Timed[]> {
  return Promise.all(
    requests.map(async (request) => {
      const timing = request.timing();
      return {
        url: request.url(),
        type: request.resourceType(),
        start: timing.startTime,
        end: timing.startTime + timing.responseEnd,
        encodedBytes: (await request.sizes()).responseBodySize,
      };
    }),
  );
}

/** The longest chain of requests in which each one started after the previous one ended. */
function longestChain(requests: Timed[]): Timed[] {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const chains = new Map<Timed, Timed[]>();
  for (const request of sorted) {
    let best: Timed[] = [];
    for (const earlier of sorted) {
      if (earlier.end <= request.start && (chains.get(earlier)?.length ?? 0) > best.length)
        best = chains.get(earlier)!;
    }
    chains.set(request, [...best, request]);
  }
  return [...chains.values()].reduce(
    (longest, chain) => (chain.length > longest.length ? chain : longest),
    [],
  );
}

/** A fresh refresh token of the user, for one signed-in tab. */
async function refreshToken(session: Session): Promise<string> {
  const reply = await call(session.baseUrl, 'POST', '/api/v1/auth/login', {
    body: `username=${encodeURIComponent(session.email)}&password=${encodeURIComponent(session.password)}`,
    contentType: 'application/x-www-form-urlencoded',
  });
  if (reply.status !== 200) throw new Error(`login: ${reply.status} ${reply.body}`);
  return (JSON.parse(reply.body) as { refresh_token: string }).refresh_token;
}

interface Load {
  shellMs: number;
  readyMs: number;
  requests: Timed[];
}

/**
 * Opens the dashboard in a new context (empty cache) signed in as after a reload: the refresh
 * token in the tab's sessionStorage, the access token to be refreshed.
 */
async function loadDashboard(browser: Browser, url: string, token: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript((value) => {
      if (window.sessionStorage.getItem('refresh_token') === null)
        window.sessionStorage.setItem('refresh_token', value);
    }, token);
    await context.addInitScript(markWhenReady(DASHBOARD_READY));
    const page = await context.newPage();
    const finished: Request[] = [];
    page.on('requestfinished', (request) => finished.push(request));
    await page.goto(url);
    await page
      .waitForFunction(() => window.readyAt !== undefined, null, { timeout: 30_000 })
      .catch(async () => {
        throw new Error(
          `${url} never showed ${DASHBOARD_READY.join(', ')}: at ${page.url()}, ${await page.innerText('body')}`,
        );
      });
    const { shellAt, readyAt } = await page.evaluate(() => ({
      shellAt: window.shellAt!,
      readyAt: window.readyAt!,
    }));
    await page.waitForLoadState('networkidle');
    return { shellMs: shellAt, readyMs: readyAt, requests: await timed(finished) };
  } finally {
    await context.close();
  }
}

const isApi = (request: Timed) => new URL(request.url).pathname.startsWith('/api/');
const describeChain = (chain: Timed[]) =>
  chain.map((request) => new URL(request.url).pathname.replace(/^\/assets\/.*/, 'script')).join(' → ');

async function main(): Promise<void> {
  build();
  const mode = embeddedMode(PORT);
  await mode.prepare();
  const service = await startService(mode.port, {
    ...mode.env,
    SECRET_KEY: 'web-bench-secret-key-that-is-long-enough-0123456789',
    NODE_ENV: 'production',
    AUTH_RATE_LIMIT_PER_IP: '1000000',
    AUTH_RATE_LIMIT_GLOBAL: '10000000',
    AUTH_REFRESH_RATE_LIMIT_PER_IP: '1000000',
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const session = await signUp(service.baseUrl);
    await seedPortfolio(session);
    const dashboard = `${service.baseUrl}/dashboard`;

    // The first load after the import fills the service's caches: reported, not counted.
    const first = await loadDashboard(browser, dashboard, await refreshToken(session));

    const loads: Load[] = [];
    for (let round = 0; round < ROUNDS; round += 1)
      loads.push(await loadDashboard(browser, dashboard, await refreshToken(session)));
    const shellMs = loads.map((loaded) => loaded.shellMs);
    const dashboardMs = loads.map((loaded) => loaded.readyMs);

    // Scripts and request chains: the longest of the counted loads.
    const scripts = loads[0].requests.filter((request) => request.type === 'script');
    const scriptBytes = scripts.reduce((sum, request) => sum + request.encodedBytes, 0);
    const coldChain = loads
      .map((loaded) => longestChain(loaded.requests))
      .reduce((longest, chain) => (chain.length > longest.length ? chain : longest));
    const coldApiChain = loads
      .map((loaded) => longestChain(loaded.requests.filter(isApi)))
      .reduce((longest, chain) => (chain.length > longest.length ? chain : longest));

    const shell = figureOf(shellMs);
    const interactive = figureOf(dashboardMs);
    const report = reporter(0);
    const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
    console.log(
      `Run ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load average ` +
        `${loadavg()[0].toFixed(1)}; ${TRADES.toLocaleString('en-US')} transactions over 50 symbols; ${ROUNDS} cold loads each.`,
    );
    console.log(
      `Initial JavaScript: ${(scriptBytes / 1000).toFixed(1)} KB compressed in ${scripts.length} ` +
        `${scripts.length === 1 ? 'file' : 'files'}; budget ${JS_BUDGET_BYTES / 1000} KB: ${verdict(scriptBytes <= JS_BUDGET_BYTES)}`,
    );
    console.log(`First dashboard after the import (not counted): ${first.readyMs.toFixed(0)} ms`);
    report('Dashboard interactive', interactive, shell.median, INTERACTIVE_BUDGET_MS);
    console.log(
      `  (baseline: the app's first render, its scripts loaded and run, in the same loads: median ${shell.median.toFixed(0)} ms)`,
    );
    console.log(
      `Dashboard API waterfall, first visit: ${coldApiChain.length} round trips (${describeChain(coldApiChain)}); ` +
        `budget ${ROUND_TRIPS_BUDGET}: ${verdict(coldApiChain.length <= ROUND_TRIPS_BUDGET)}`,
    );
    console.log(
      `  (first visit with the document and scripts: ${coldChain.length} in a row, ${describeChain(coldChain)})`,
    );
  } finally {
    await browser.close();
    await service.stop();
    await mode.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
