// Cost of the assistant on the offline engine, in process (no socket, no load generator competing
// for the CPU): the built service on a fresh embedded database, one user holding 50 stocks and
// watching 10, quotes cached after a warm-up. A chat turn (a rotation of every kind of question,
// each stored with its answer) must stay within 50 ms at p99 and the briefing within 100 ms, both
// also shown as a ratio against GET /portfolio/positions measured in the same run — the floor of
// any answer about the portfolio (one ledger read, 50 cached quotes), sampled alternately with each subject.
// Like the other benchmarks it prints its verdicts and does not fail the run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

const ROOT = join(__dirname, '..');
const HOLDINGS = 50;
const CHAT_TURNS = 300;
const BRIEFINGS = 60;
const CHAT_P99_BUDGET_MS = 50;
/** Conversations answered at once, each a dialogue of follow-ups resolved from its stored messages. */
const CONCURRENT_CONVERSATIONS = 8;
const TURNS_PER_CONVERSATION = 40;
const DIALOGUE = [
  'How many shares of Apple do I own?',
  'and Microsoft?',
  'why?',
  'Any news on it?',
  'What gains did I realize this year?',
  'what about last year?',
  'How much did I get in dividends this year?',
  'What is my cash balance?',
  'What is beta?',
  'tell me more',
  'Should I buy more Microsoft?',
  'What did I buy last month?',
  'how is micrsoft doing today?',
  'What is my portfolio worth?',
];
const BRIEFING_BUDGET_MS = 100;
const QUESTIONS = [
  'What is my portfolio worth?',
  'How did my portfolio do this year?',
  'What are my best and worst holdings?',
  'How risky is my portfolio?',
  'Is my portfolio diversified?',
  'What moved in the market today?',
  'How is Apple doing?',
  'Any news on Microsoft?',
  'Compare Coke and Pepsi',
  'Should I rebalance?',
  'What are my preferences?',
  'help',
];

interface Timing {
  median: number;
  p99: number;
}

function timingOf(samples: number[]): Timing {
  samples.sort((a, b) => a - b);
  return {
    median: samples[Math.floor(samples.length / 2)],
    p99: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))],
  };
}

async function main(): Promise<void> {
  if (!process.env.BENCH_SKIP_BUILD) {
    const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'ia-bench-assistant-'));
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    SECRET_KEY: 'bench-secret-key-that-is-long-enough-for-hs512-0123456789abcdef',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
    FIRST_SUPERUSER_EMAIL: '',
    FIRST_SUPERUSER_PASSWORD: '',
    AI_PROVIDER: 'offline',
    ASSISTANT_CHAT_TURNS_PER_MINUTE: '10000',
  });
  // The built JavaScript: Nest's injection needs the decorator metadata tsc emits.
  const { NestFactory } = require('@nestjs/core') as typeof import('@nestjs/core');
  const { AppModule } = require(join(ROOT, 'dist/app.module')) as { AppModule: new () => unknown };
  const { fastifyAdapter } = require(
    join(ROOT, 'dist/bootstrap/create-app'),
  ) as typeof import('../src/bootstrap/create-app');
  const { configureApp } = require(
    join(ROOT, 'dist/bootstrap/configure-app'),
  ) as typeof import('../src/bootstrap/configure-app');
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, fastifyAdapter(), {
    logger: false,
  });
  // Every query the service sends, counted where they all pass (TypeORM's driver uses this pg).
  const queries = { count: 0 };
  const { Client } = require('pg') as typeof import('pg');
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function (this: InstanceType<typeof Client>, ...args: unknown[]) {
    queries.count += 1;
    return query.apply(this, args);
  } as typeof Client.prototype.query;
  await configureApp(app);
  await app.init();
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.ready();
  try {
    const call = async (
      method: 'GET' | 'POST',
      url: string,
      headers: Record<string, string>,
      payload?: unknown,
    ) => {
      const response = await fastify.inject({
        method,
        url,
        headers,
        ...(payload === undefined ? {} : { payload: payload as string }),
      });
      if (response.statusCode >= 300)
        throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return response;
    };
    const email = `bench-${Date.now()}@example.com`;
    const password = 'correct horse battery staple';
    await call('POST', '/api/v1/users/register', {}, { email, password, full_name: 'Bench' });
    const login = await call(
      'POST',
      '/api/v1/auth/login',
      { 'content-type': 'application/x-www-form-urlencoded' },
      `username=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`,
    );
    const auth = { authorization: `Bearer ${login.json().access_token as string}` };
    const universe = (await import('../data/replay/universe.json')).default as {
      stocks: { symbol: string }[];
    };
    const symbols = universe.stocks.map((stock) => stock.symbol).slice(0, HOLDINGS + 10);
    const csv = [
      'date,symbol,side,quantity,price',
      ...symbols.slice(0, HOLDINGS).map((symbol, i) => `2025-01-06,${symbol},buy,${5 + (i % 7)},${50 + i}`),
    ].join('\n');
    await call('POST', '/api/v1/portfolio/transactions/import', { ...auth, 'content-type': 'text/csv' }, csv);
    await call('POST', '/api/v1/preferences/', auth, {
      experience_level: 'intermediate',
      watchlist: symbols.slice(HOLDINGS),
      market_sectors: ['technology', 'healthcare', 'energy'],
    });

    const time = async (runs: number, work: (i: number) => Promise<unknown>): Promise<Timing> => {
      for (let i = 0; i < 10; i += 1) await work(i);
      const samples: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const start = performance.now();
        await work(i);
        samples.push(performance.now() - start);
      }
      return timingOf(samples);
    };
    // Baseline and subject samples alternate, so that a burst of load from other processes hits both.
    const interleaved = async (runs: number, subject: (i: number) => Promise<unknown>) => {
      const baselineSamples: number[] = [];
      const subjectSamples: number[] = [];
      for (let i = 0; i < 10; i += 1) await subject(i);
      for (let i = 0; i < runs; i += 1) {
        let start = performance.now();
        await call('GET', '/api/v1/portfolio/positions', auth);
        baselineSamples.push(performance.now() - start);
        start = performance.now();
        await subject(i);
        subjectSamples.push(performance.now() - start);
      }
      return { baseline: timingOf(baselineSamples), subject: timingOf(subjectSamples) };
    };
    const chatRun = await interleaved(CHAT_TURNS, (i) =>
      call('POST', '/api/v1/assistant/chat', auth, { message: QUESTIONS[i % QUESTIONS.length] }),
    );
    const baseline = chatRun.baseline;
    const chat = chatRun.subject;
    const perQuestion = await Promise.resolve().then(async () => {
      const rows: string[] = [];
      for (const question of QUESTIONS) {
        const figure = await time(20, () =>
          call('POST', '/api/v1/assistant/chat', auth, { message: question }),
        );
        rows.push(
          `  ${question.padEnd(40)} median ${figure.median.toFixed(2)} ms, p99 ${figure.p99.toFixed(2)} ms`,
        );
      }
      return rows;
    });
    // Eight users in conversation at once, each holding the same 50 stocks: every turn reads its
    // conversation's stored messages to resolve follow-ups, so the state's cost is in every sample;
    // a conversation starts afresh every 10 turns (the stored history read is the last 10 messages).
    const talkers = await Promise.all(
      Array.from({ length: CONCURRENT_CONVERSATIONS }, async (_, worker) => {
        const talkerEmail = `bench-${Date.now()}-${worker}@example.com`;
        await call(
          'POST',
          '/api/v1/users/register',
          {},
          { email: talkerEmail, password, full_name: 'Bench' },
        );
        const talkerLogin = await call(
          'POST',
          '/api/v1/auth/login',
          { 'content-type': 'application/x-www-form-urlencoded' },
          `username=${encodeURIComponent(talkerEmail)}&password=${encodeURIComponent(password)}`,
        );
        const talkerAuth = { authorization: `Bearer ${talkerLogin.json().access_token as string}` };
        await call(
          'POST',
          '/api/v1/portfolio/transactions/import',
          { ...talkerAuth, 'content-type': 'text/csv' },
          csv,
        );
        return talkerAuth;
      }),
    );
    // Each talker has its own dialogue (the rotation from its own offset), whether it talks alone or
    // with the others.
    const converse = async (workers: number[], samples: number[]) =>
      Promise.all(
        workers.map(async (worker) => {
          const talkerAuth = talkers[worker];
          let conversationId: string | undefined;
          for (let turn = 0; turn < TURNS_PER_CONVERSATION; turn += 1) {
            if (turn % 10 === 0) conversationId = undefined;
            const message = DIALOGUE[(turn + worker) % DIALOGUE.length];
            const start = performance.now();
            const response = await call('POST', '/api/v1/assistant/chat', talkerAuth, {
              message,
              ...(conversationId ? { conversation_id: conversationId } : {}),
            });
            if (turn >= 2) samples.push(performance.now() - start);
            conversationId = (response.json() as { conversation_id: string }).conversation_id;
          }
        }),
      );
    // The same dialogue one conversation at a time first (which also warms every user's caches).
    const sequentialSamples: number[] = [];
    for (let round = 0; round < CONCURRENT_CONVERSATIONS; round += 1) {
      const one: number[] = [];
      await converse([round], one);
      sequentialSamples.push(...one);
    }
    const sequential = timingOf(sequentialSamples);
    const concurrentSamples: number[] = [];
    const queriesBefore = queries.count;
    const cpuBefore = process.cpuUsage();
    await converse(
      talkers.map((_, worker) => worker),
      concurrentSamples,
    );
    const cpu = process.cpuUsage(cpuBefore);
    const concurrentTurns = CONCURRENT_CONVERSATIONS * TURNS_PER_CONVERSATION;
    const queriesPerTurn = (queries.count - queriesBefore) / concurrentTurns;
    const cpuPerTurnMs = (cpu.user + cpu.system) / 1000 / concurrentTurns;
    const concurrent = timingOf(concurrentSamples);

    const briefingRun = await interleaved(BRIEFINGS, () => call('GET', '/api/v1/assistant/briefing', auth));
    const briefing = briefingRun.subject;

    // After a trade the memoised returns and risk are computed afresh: shown, not judged.
    const cold = async (work: () => Promise<unknown>) => {
      await call('POST', '/api/v1/portfolio/transactions', auth, {
        symbol: symbols[0],
        side: 'buy',
        quantity: 1,
        price: 50,
        executed_at: '2025-02-03',
      });
      const start = performance.now();
      await work();
      return performance.now() - start;
    };
    const coldRisk = await cold(() =>
      call('POST', '/api/v1/assistant/chat', auth, { message: 'How risky is my portfolio?' }),
    );
    const coldBriefing = await cold(() => call('GET', '/api/v1/assistant/briefing', auth));

    const line = (name: string, figure: Timing, base: Timing, budget: number, judged: 'p99' | 'median') =>
      console.log(
        `${name}: median ${figure.median.toFixed(2)} ms, p99 ${figure.p99.toFixed(2)} ms = ` +
          `${(figure[judged] / base[judged]).toFixed(1)}× the interleaved baseline's ${base[judged].toFixed(2)} ms (${judged}); ` +
          `budget ${judged} ${budget} ms: ${figure[judged] <= budget ? 'met' : 'NOT met'}`,
      );
    console.log(
      `baseline GET /portfolio/positions, ${HOLDINGS} holdings: median ${baseline.median.toFixed(2)} ms, p99 ${baseline.p99.toFixed(2)} ms`,
    );
    line(
      `offline chat turn, ${QUESTIONS.length} kinds of question, ${HOLDINGS} holdings`,
      chat,
      baseline,
      CHAT_P99_BUDGET_MS,
      'p99',
    );
    console.log(perQuestion.join('\n'));
    console.log(
      `the same dialogue one conversation at a time, ${sequentialSamples.length} turns: median ${sequential.median.toFixed(2)} ms, p99 ${sequential.p99.toFixed(2)} ms`,
    );
    console.log(
      `offline chat turns in ${CONCURRENT_CONVERSATIONS} concurrent conversations (follow-ups from stored messages), ` +
        `${concurrentSamples.length} turns: median ${concurrent.median.toFixed(2)} ms, p99 ${concurrent.p99.toFixed(2)} ms; ` +
        `budget p99 ${CHAT_P99_BUDGET_MS} ms: ${concurrent.p99 <= CHAT_P99_BUDGET_MS ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  per turn: ${queriesPerTurn.toFixed(2)} database queries, ${cpuPerTurnMs.toFixed(2)} ms of this process's CPU ` +
        `(the service and the requests' injection; the database's own CPU is not counted)`,
    );
    line(
      `briefing, ${HOLDINGS} holdings + 10 watched`,
      briefing,
      briefingRun.baseline,
      BRIEFING_BUDGET_MS,
      'p99',
    );
    console.log(
      `first answers after a trade (returns and risk computed afresh): risk question ${coldRisk.toFixed(2)} ms, briefing ${coldBriefing.toFixed(2)} ms`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
