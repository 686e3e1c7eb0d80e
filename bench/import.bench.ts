// Issue 27's benchmark targets. First, a 20,000-row brokerage export imported end to end over HTTP,
// against the target of ≤ 5 s, and beside a baseline measured in the same run: the same trades
// through the service's own CSV import (POST /portfolio/transactions/import, 4 files of 5,000 rows,
// its row cap). Then the portfolio routes at 5 accounts × 5,000 transactions against today's
// budgets (bench/http/account-routes.ts).
//
// The export is a Schwab "Transactions" file as downloaded (title line, quoted money, newest first,
// trailing commas): deposits, buys, sells, dividends and their reinvestments, fees and interest over
// four years of S&P 500 symbols, plus option rows the import skips. Timed: a dry run and the commit
// of its preview (the two calls a client makes), and a direct import by another user.
//
// BENCH_PORT_BASE (45100) sets the port; BENCH_DATABASE_URL and BENCH_REDIS_URL add a run on a
// PostgreSQL server with Redis; BENCH_CPU_PROFILE_DIR has the service write its V8 CPU profile there
// (node --cpu-prof) when it stops; BENCH_PART=export or BENCH_PART=accounts runs one of the two.
// A full run writes bench/results/import.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { seededRandom } from './bench-kit';
import { accountRoutesSection } from './http/account-routes';
import { inEveryMode, machineLine, Mode } from './http/modes';
import { call, Session, signUp } from './http/seed';
import { startService } from './http/service';

const ROWS = 20_000;
const NATIVE_FILES = 4;
const BUDGET_MS = 5_000;
const SYMBOLS = ['AAPL', 'MSFT', 'AMZN', 'JPM', 'JNJ', 'XOM', 'PG', 'KO', 'PFE', 'INTC'];
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 45_100);
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
const PART = process.env.BENCH_PART;

interface Trade {
  date: Date;
  symbol: string;
  side: 'buy' | 'sell';
  quantity: number;
  price: number;
}

/** Buys, and sells of a tenth of what is held, in date order: every sell is covered. */
function trades(count: number, now: Date): Trade[] {
  const random = seededRandom(27);
  const start = now.getTime() - 4 * 365 * 86_400_000;
  const span = now.getTime() - 2 * 86_400_000 - start;
  const dates = Array.from({ length: count }, () => start + Math.floor(random() * span)).sort(
    (a, b) => a - b,
  );
  const held = new Map<string, number>();
  return dates.map((time, index) => {
    const symbol = SYMBOLS[index % SYMBOLS.length];
    const holding = held.get(symbol) ?? 0;
    const sell = holding >= 100 && random() < 0.2;
    const quantity = sell ? 10 : 1 + Math.floor(random() * 20);
    held.set(symbol, holding + (sell ? -quantity : quantity));
    return {
      date: new Date(time),
      symbol,
      side: sell ? 'sell' : 'buy',
      quantity,
      price: Math.round((50 + random() * 150) * 100) / 100,
    };
  });
}

const usDate = (date: Date) =>
  `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')}/${date.getUTCFullYear()}`;
const dollars = (value: number) =>
  `${value < 0 ? '-' : ''}$${Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The Schwab export of ROWS rows: the trades with a deposit first, dividends, fees, interest and options among them. */
function schwabExport(tradeList: Trade[]): string {
  const random = seededRandom(2027);
  const rows: string[] = [];
  const quoted = (...cells: string[]) => `${cells.map((cell) => `"${cell}"`).join(',')},`;
  const first = tradeList[0].date;
  rows.push(quoted(usDate(first), 'MoneyLink Deposit', '', 'Tfr BANK', '', '', '', dollars(10_000_000)));
  for (const trade of tradeList.slice(0, ROWS - 1)) {
    const kind = random();
    const date = usDate(trade.date);
    if (kind < 0.05 && trade.side === 'buy') {
      rows.push(
        quoted(
          date,
          'Qualified Dividend',
          trade.symbol,
          'DIVIDEND',
          '',
          '',
          '',
          dollars(trade.quantity * 0.5),
        ),
      );
    } else if (kind < 0.07) {
      rows.push(quoted(date, 'Credit Interest', '', 'SCHWAB1 INT', '', '', '', dollars(1.23)));
    } else if (kind < 0.09) {
      rows.push(
        quoted(
          date,
          'Buy to Open',
          `${trade.symbol} 12/19/2025 100.00 C`,
          'CALL',
          '1',
          '$1.00',
          '$0.65',
          dollars(-100.65),
        ),
      );
    } else {
      const gross = trade.quantity * trade.price;
      const fees = 0.65;
      const amount = trade.side === 'buy' ? -(gross + fees) : gross - fees;
      rows.push(
        quoted(
          date,
          trade.side === 'buy' ? 'Buy' : 'Sell',
          trade.symbol,
          'SECURITY',
          String(trade.quantity),
          dollars(trade.price),
          dollars(fees),
          dollars(amount),
        ),
      );
    }
  }
  rows.reverse();
  const title = `"Transactions  for account Brokerage XXXX-1234 as of ${usDate(new Date())} 18:29:00 ET",`;
  const header = quoted(
    'Date',
    'Action',
    'Symbol',
    'Description',
    'Quantity',
    'Price',
    'Fees & Comm',
    'Amount',
  );
  return [title, header, ...rows, 'Transactions Total,,,,,,,"$0.00",'].join('\r\n') + '\r\n';
}

function nativeFiles(tradeList: Trade[]): string[] {
  const size = Math.ceil(tradeList.length / NATIVE_FILES);
  return Array.from({ length: NATIVE_FILES }, (_, index) => {
    const rows = tradeList
      .slice(index * size, (index + 1) * size)
      .map(
        (trade) =>
          `${trade.date.toISOString().slice(0, 10)},${trade.symbol},${trade.side},${trade.quantity},${trade.price},0.65`,
      );
    return ['date,symbol,side,quantity,price,fees', ...rows].join('\n') + '\n';
  });
}

async function timed(
  session: Session,
  path: string,
  body: string | undefined,
  expected: number,
): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const reply = await call(session.baseUrl, 'POST', path, {
    token: session.accessToken,
    body,
    contentType: body === undefined ? undefined : 'text/csv',
  });
  const ms = performance.now() - started;
  if (reply.status !== expected) throw new Error(`POST ${path}: ${reply.status} ${reply.body.slice(0, 300)}`);
  return { ms, body: reply.body };
}

async function benchMode(mode: Mode): Promise<string> {
  await mode.prepare();
  const service = await startService(
    mode.port,
    {
      ...mode.env,
      SECRET_KEY: 'import-bench-secret-key-of-enough-length-0123456789',
      NODE_ENV: 'production',
    },
    PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
  );
  try {
    const sections = [`## ${mode.label}`];
    if (PART !== 'accounts') sections.push(await exportSection(service.baseUrl));
    if (PART !== 'export') sections.push(await accountRoutesSection(service.baseUrl, service.pid));
    return sections.join('\n\n');
  } finally {
    await service.stop();
    await mode.cleanup();
  }
}

async function exportSection(baseUrl: string): Promise<string> {
  const now = new Date();
  const tradeList = trades(ROWS, now);
  const file = schwabExport(tradeList);
  const previewer = await signUp(baseUrl);
  const direct = await signUp(baseUrl);
  const baseline = await signUp(baseUrl);

  const preview = await timed(previewer, '/api/v1/portfolio/import?dry_run=true', file, 200);
  const answer = JSON.parse(preview.body) as {
    preview_token: string;
    to_record: number;
    skipped: unknown[];
    rejected: unknown[];
  };
  const committed = await timed(
    previewer,
    `/api/v1/portfolio/import?preview_token=${answer.preview_token}`,
    undefined,
    201,
  );
  const recorded = (JSON.parse(committed.body) as { recorded: number }).recorded;
  const once = await timed(direct, '/api/v1/portfolio/import', file, 201);
  let nativeMs = 0;
  for (const native of nativeFiles(tradeList))
    nativeMs += (await timed(baseline, '/api/v1/portfolio/transactions/import', native, 201)).ms;

  const previewAndCommit = preview.ms + committed.ms;
  const worst = Math.max(previewAndCommit, once.ms);
  return [
    `### Brokerage export, ${ROWS.toLocaleString('en-US')} rows`,
    '',
    `The export: ${ROWS.toLocaleString('en-US')} rows, ${(file.length / 1024 / 1024).toFixed(1)} MiB; ` +
      `${answer.to_record.toLocaleString('en-US')} to record, ${answer.skipped.length} skipped (options), ${answer.rejected.length} rejected.`,
    '',
    '| step | ms |',
    '|---|---|',
    `| dry run (read, check symbols, fit, store the preview) | ${preview.ms.toFixed(0)} |`,
    `| commit of the preview (${recorded.toLocaleString('en-US')} recorded) | ${committed.ms.toFixed(0)} |`,
    `| dry run + commit | ${previewAndCommit.toFixed(0)} |`,
    `| direct import, one call | ${once.ms.toFixed(0)} |`,
    `| baseline: the trades as ${NATIVE_FILES} native CSV imports of 5,000 rows | ${nativeMs.toFixed(0)} |`,
    '',
    `Slowest path ${worst.toFixed(0)} ms; budget ${BUDGET_MS} ms: ${worst <= BUDGET_MS ? 'met' : 'NOT met'}. ` +
      `Direct import / baseline: ${(once.ms / nativeMs).toFixed(2)} ×.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const sections = await inEveryMode(PORT_BASE, benchMode);
  const report = [
    `# Issue 27: a ${ROWS.toLocaleString('en-US')}-row brokerage export, and 5 accounts × 5,000 transactions`,
    '',
    `${machineLine()}.`,
    '',
    sections.join('\n\n'),
  ].join('\n');
  console.log(report);
  if (!PART) {
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    writeFileSync(join(__dirname, 'results', 'import.md'), `${report}\n`);
    console.log('\nwritten to bench/results/import.md');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
