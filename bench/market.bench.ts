// Cost of the offline market data: loading the shipped history (part of the service's cold start,
// budget 3 s for everything), a quote, the summary's scan of the 505 stocks, a year of daily bars,
// a replay day's moves for the news wire, and a cached call through the provider gateway. Each
// figure is a ratio against a baseline measured in this same run; the budgets are absolute.
import { createCache } from 'cache-manager';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ProviderCallGateway } from '../src/integrations/vendors';
import { REPLAY_PRICES_FILE, REPLAY_UNIVERSE_FILE } from '../src/modules/replay/replay-data.format';
import { loadReplayDataset, REPLAY_DATA_DIR } from '../src/modules/replay/replay-data.loader';
import { ReplayMarket } from '../src/modules/replay/replay-market';
import { Figure, figureOf, reporter } from './bench-kit';

const LOAD_BUDGET_MS = 500;
const QUOTE_BUDGET_MS = 0.05;
const SUMMARY_SCAN_BUDGET_MS = 20;
const HISTORY_BUDGET_MS = 5;
const SESSION_MOVES_BUDGET_MS = 150;
const CACHED_CALL_BUDGET_MS = 0.1;
const INSTANT = new Date('2026-11-20T17:45:00Z');

async function measure(runs: number, work: () => unknown): Promise<Figure> {
  for (let i = 0; i < Math.min(5, runs); i += 1) await work();
  const timings: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await work();
    timings.push(performance.now() - start);
  }
  return figureOf(timings);
}

/** Sub-millisecond budgets: one decimal more than the other benchmarks. */
const report = reporter(3);

async function main(): Promise<void> {
  const dataDir = REPLAY_DATA_DIR;

  // Baseline: reading the two shipped files, the I/O floor of any loader.
  const readBaseline = await measure(10, () =>
    Promise.all([readFile(join(dataDir, REPLAY_UNIVERSE_FILE)), readFile(join(dataDir, REPLAY_PRICES_FILE))]),
  );
  const load = await measure(10, () => loadReplayDataset(dataDir));
  report(
    'load the replay history (505 stocks + 3 indices × 1,259 days)',
    load,
    readBaseline.median,
    LOAD_BUDGET_MS,
  );

  const market = new ReplayMarket(await loadReplayDataset(dataDir));
  const symbols = market.dataset.stocks.map((stock) => stock.symbol);
  let next = 0;

  // Baseline: reading one stored bar, what any quote must at least do.
  const barBaseline = await measure(20_000, () => market.dataset.bar(symbols[next++ % symbols.length], 100));
  const quote = await measure(20_000, () => market.quote(symbols[next++ % symbols.length], INSTANT));
  report('replay quote, mid-session', quote, barBaseline.median, QUOTE_BUDGET_MS);

  // Baseline: one stored bar per stock, the least a scan of the universe reads.
  const scanBaseline = await measure(200, () => symbols.map((symbol) => market.dataset.bar(symbol, 100)));
  const scan = await measure(200, () =>
    symbols
      .map((symbol) => market.quote(symbol, INSTANT))
      .sort((a, b) => b.price / b.previousClose - a.price / a.previousClose),
  );
  report('summary scan: quote and rank 505 stocks', scan, scanBaseline.median, SUMMARY_SCAN_BUDGET_MS);

  // Baseline: 262 stored bars of one stock.
  const yearBaseline = await measure(500, () =>
    Array.from({ length: 262 }, (_, day) => market.dataset.bar('AAPL', day)),
  );
  const history = await measure(500, () => market.dailyBars('AAPL', '2025-11-20', '2026-11-20', INSTANT));
  report('one year of daily bars', history, yearBaseline.median, HISTORY_BUDGET_MS);

  const moves = await measure(20, () => market.sessionMoves('2026-11-19'));
  report('session moves of the universe (news wire)', moves, scanBaseline.median, SESSION_MOVES_BUDGET_MS);

  const clock = { now: () => INSTANT };
  const gateway = new ProviderCallGateway(
    createCache(),
    clock,
    { sleep: async () => undefined },
    {
      maxRateLimitWaitMs: 0,
      maxRateLimitRetries: 0,
    },
  );
  const call = {
    provider: 'replay',
    kind: 'quote',
    key: 'AAPL',
    ttlMs: 60_000,
    minIntervalMs: 0,
    fetch: async () => 1,
  };
  await gateway.call(call);
  // Baseline: an awaited Map lookup, the least an asynchronous cache can cost.
  const map = new Map([['AAPL', 1]]);
  const mapBaseline = await measure(20_000, async () => map.get('AAPL'));
  const cached = await measure(20_000, () => gateway.call(call));
  report('cached call through the provider gateway', cached, mapBaseline.median, CACHED_CALL_BUDGET_MS);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
