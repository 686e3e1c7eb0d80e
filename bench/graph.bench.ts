// The market graph against issue 28's budgets. In this process, on an embedded PostgreSQL of its
// own: the first build (505 companies, their categories, a year of correlations), the daily
// correlation refresh after a new close, and the heap the graph keeps in process. Then over HTTP,
// on the built service: `related` (by industry and by correlation) and `exposure` for a user
// holding 50 stocks, 8 connections each, p99 against the budget, beside a quote measured in the same
// run (the machine is shared: the baseline shows how loaded it was), with the CPU a request cost the
// service and its database (which moves far less with the load than the latencies).
//
// BENCH_SECONDS (default 4) and BENCH_PORT_BASE (7600) tune it.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DataSource } from 'typeorm';
import type { Clock } from '../src/common/time/clock';
import { dataSourceOptions } from '../src/database/data-source-options';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres';
import { loadCompanyDirectory } from '../src/modules/graph/company-directory';
import { GraphMaintenance } from '../src/modules/graph/graph-maintenance.service';
import { GraphRepository } from '../src/modules/graph/graph.repository';
import {
  dateOfTradingDay,
  nextTradingDay,
  tradingDayOnOrBefore,
} from '../src/modules/replay/replay-calendar';
import { ReplayService } from '../src/modules/replay/replay.service';
import type { NewsService } from '../src/modules/news';
import { measure } from './http/load';
import { build, embeddedMode } from './http/modes';
import { call, HELD_SYMBOLS, signUp } from './http/seed';
import { startService } from './http/service';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const PORT = Number(process.env.BENCH_PORT_BASE ?? 7600);
const BUILD_BUDGET_MS = 10_000;
const REFRESH_BUDGET_MS = 5_000;
const MEMORY_BUDGET_MB = 50;
const P99_BUDGET_MS = 20;

const verdict = (value: number, budget: number) => (value <= budget ? 'met' : 'NOT met');

Logger.overrideLogger(['error', 'warn']);
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 1024 / 1024;
};

async function inProcess(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ia-graph-bench-'));
  const postgres = await startEmbeddedPostgres(dataDir);
  const dataSource = new DataSource(dataSourceOptions(postgres.connection));
  try {
    await dataSource.initialize();
    await dataSource.runMigrations();
    // After today's close, so that the last closed session is today's (or the last weekday's).
    let now = new Date();
    now.setUTCHours(22, 0, 0, 0);
    const clock: Clock = { now: () => now };
    const replay = new ReplayService(clock);
    await replay.market();
    // The replay's decoding buffers are garbage once loaded: let them go before the baseline.
    await new Promise((resolve) => setTimeout(resolve, 500));
    heapMb();
    const baselineHeap = heapMb();
    const maintenance = new GraphMaintenance(
      new GraphRepository(dataSource),
      replay,
      null as unknown as NewsService,
      clock,
    );

    let started = performance.now();
    await maintenance.ensureFresh();
    const buildMs = performance.now() - started;
    console.log(
      `first build, 505 companies and a year of correlations (252 sessions): ${buildMs.toFixed(0)} ms; ` +
        `budget ${BUILD_BUDGET_MS} ms: ${verdict(buildMs, BUILD_BUDGET_MS)}`,
    );
    await loadCompanyDirectory();
    const graphHeap = heapMb() - baselineHeap;

    const next = dateOfTradingDay(nextTradingDay(tradingDayOnOrBefore(replay.lastClosedSession())));
    now = new Date(`${next}T22:00:00Z`);
    started = performance.now();
    await maintenance.ensureFresh();
    const refreshMs = performance.now() - started;
    const [{ pairs }] = (await dataSource.query(
      `SELECT count(*) / 2 AS pairs FROM graph_edges WHERE kind = 'CO_MOVES_WITH'`,
    )) as { pairs: string }[];
    console.log(
      `daily correlation refresh to ${next}, 505 companies (${pairs} co-moving pairs): ${refreshMs.toFixed(0)} ms; ` +
        `budget ${REFRESH_BUDGET_MS} ms: ${verdict(refreshMs, REFRESH_BUDGET_MS)}`,
    );
    const [{ mb }] = (await dataSource.query(
      `SELECT (pg_total_relation_size('graph_nodes') + pg_total_relation_size('graph_edges'))::float8 / 1048576 AS mb`,
    )) as { mb: number }[];
    console.log(
      `graph memory in process (correlation models of two sessions and the company directory, heap and array buffers after GC): ` +
        `${graphHeap.toFixed(1)} MB; budget ${MEMORY_BUDGET_MB} MB: ${verdict(graphHeap, MEMORY_BUDGET_MB)} ` +
        `(in PostgreSQL, tables and indexes: ${mb.toFixed(1)} MB)`,
    );
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function overHttp(): Promise<void> {
  build();
  const mode = embeddedMode(PORT);
  const service = await startService(PORT, {
    ...mode.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SECRET_KEY: randomBytes(32).toString('hex'),
  });
  try {
    const session = await signUp(service.baseUrl);
    const rows = HELD_SYMBOLS.map((symbol, index) => `2025-01-06,${symbol},buy,${10 + index},100,0`);
    const imported = await call(service.baseUrl, 'POST', '/api/v1/portfolio/transactions/import', {
      token: session.accessToken,
      contentType: 'text/csv',
      body: ['date,symbol,side,quantity,price,fees', ...rows].join('\n'),
    });
    if (imported.status !== 201) throw new Error(`import: ${imported.status} ${imported.body.slice(0, 300)}`);
    const routes = [
      { name: 'baseline: a quote, same run', path: '/api/v1/market/stock/AAPL' },
      { name: 'related, by industry', path: '/api/v1/market/stock/NVDA/related?by=industry' },
      { name: 'related, by correlation', path: '/api/v1/market/stock/JPM/related?by=correlation' },
      { name: 'exposure, 50 holdings', path: '/api/v1/portfolio/exposure' },
    ];
    for (const route of routes) {
      const warm = await call(service.baseUrl, 'GET', route.path, { token: session.accessToken });
      if (warm.status !== 200) throw new Error(`${route.path}: ${warm.status} ${warm.body.slice(0, 300)}`);
      const figures = await measure(
        service.pid,
        {
          url: `${service.baseUrl}${route.path}`,
          method: 'GET',
          headers: { authorization: `Bearer ${session.accessToken}` },
          connections: 8,
        },
        1,
        SECONDS,
      );
      const budget =
        route.path.includes('/stock/AAPL') && !route.path.includes('related')
          ? ''
          : `; budget p99 ${P99_BUDGET_MS} ms: ${verdict(figures.p99Ms, P99_BUDGET_MS)}`;
      console.log(
        `${route.name}: ${figures.requestsPerSecond.toFixed(0)} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms ` +
          `at 8 connections, CPU ${(figures.cpuMsPerRequest * 1000).toFixed(0)} µs a request (${figures.failures} failures)${budget}`,
      );
    }
  } finally {
    await service.stop();
    await mode.cleanup();
  }
}

void (async () => {
  await inProcess();
  await overHttp();
})().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
