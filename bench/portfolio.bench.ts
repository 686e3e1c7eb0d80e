// Compute cost of the portfolio analytics on synthetic but realistic sizes: risk metrics for 100
// positions over 1,260 trading days (five years), and positions for 100 holdings built from a
// 1,000-trade ledger. Each figure is a ratio against a baseline measured in this same run (one
// plain pass over the same data), so the ratios compare across machines; the budgets are absolute.
import { performance } from 'node:perf_hooks';
import { DailyClose } from '../src/modules/portfolio/analytics/daily-returns';
import { LedgerEntry, replayLedger } from '../src/modules/portfolio/analytics/ledger-replay';
import { summarisePositions } from '../src/modules/portfolio/analytics/portfolio-summary';
import { PositionQuote, valuePositions } from '../src/modules/portfolio/analytics/position-valuation';
import { computeRiskMetrics, RiskHolding } from '../src/modules/portfolio/analytics/risk-metrics';
import { Figure, figureOf, reporter, seededRandom } from './bench-kit';

const POSITIONS = 100;
const TRADING_DAYS = 1_260;
const TRADES_PER_HOLDING = 10;
const RISK_BUDGET_MS = 50;
const POSITIONS_BUDGET_MS = 5;
const SECTORS = ['technology', 'healthcare', 'finance', 'energy', 'industrials', 'utilities'];

function tradingDates(count: number): string[] {
  const dates: string[] = [];
  const day = new Date(Date.UTC(2013, 1, 8));
  while (dates.length < count) {
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) dates.push(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return dates;
}

function randomWalk(random: () => number, dates: readonly string[], volatility: number): DailyClose[] {
  let close = 20 + random() * 200;
  return dates.map((date) => {
    close *= 1 + (random() - 0.5) * 2 * volatility;
    return { date, close };
  });
}

function measure(runs: number, work: () => unknown): Figure {
  for (let i = 0; i < 5; i += 1) work();
  const timings: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    work();
    timings.push(performance.now() - start);
  }
  return figureOf(timings);
}

const report = reporter(2);

const random = seededRandom(20180207);
const dates = tradingDates(TRADING_DAYS);
const symbols = Array.from({ length: POSITIONS }, (_, i) => `S${String(i).padStart(3, '0')}`);
const closesBySymbol = new Map(symbols.map((symbol) => [symbol, randomWalk(random, dates, 0.02)]));
const benchmark = { symbol: '^GSPC', closes: randomWalk(random, dates, 0.01) };
const holdings: RiskHolding[] = symbols.map((symbol, i) => ({
  symbol,
  sector: SECTORS[i % SECTORS.length],
  marketValue: 1_000 + random() * 50_000,
}));

// Baseline: one pass over every close computing each symbol's mean daily return.
const riskBaseline = measure(30, () => {
  let sum = 0;
  for (const closes of closesBySymbol.values()) {
    for (let t = 1; t < closes.length; t += 1) sum += closes[t].close / closes[t - 1].close - 1;
  }
  return sum;
});
const risk = measure(30, () =>
  computeRiskMetrics({
    holdings,
    closesBySymbol,
    benchmark,
    lookbackDays: TRADING_DAYS,
    annualRiskFreeRate: 0.02,
  }),
);
report(
  `risk metrics, ${POSITIONS} positions × ${TRADING_DAYS} days`,
  risk,
  riskBaseline.median,
  RISK_BUDGET_MS,
);

let nextId = 1;
const ledger: LedgerEntry[] = symbols.flatMap((symbol) =>
  Array.from({ length: TRADES_PER_HOLDING }, (_, k) => ({
    id: nextId++,
    symbol,
    side: k % 3 === 2 ? ('sell' as const) : ('buy' as const),
    quantity: k % 3 === 2 ? 5 : 10,
    price: 50 + random() * 100,
    fees: 1,
    executedAt: new Date(Date.UTC(2016, 0, 4 + k * 30, 15)),
    tradeDate: new Date(Date.UTC(2016, 0, 4 + k * 30, 15)).toISOString().slice(0, 10),
  })),
);
const quotes = new Map<string, PositionQuote>(
  symbols.map((symbol) => [
    symbol,
    { price: 50 + random() * 100, change: random() - 0.5, timestamp: new Date() },
  ]),
);
const sectorOf = (symbol: string) => SECTORS[Number(symbol.slice(1)) % SECTORS.length];

// Baseline: one pass over the ledger summing signed quantity × price.
const positionsBaseline = measure(200, () => {
  let sum = 0;
  for (const entry of ledger) sum += (entry.side === 'buy' ? 1 : -1) * entry.quantity * entry.price;
  return sum;
});
const positions = measure(200, () => {
  const replay = replayLedger(ledger);
  return summarisePositions(
    valuePositions(replay.positions.values(), quotes, sectorOf),
    replay.totalRealizedPnl,
  );
});
report(
  `positions and summary, ${POSITIONS} holdings from ${ledger.length} trades`,
  positions,
  positionsBaseline.median,
  POSITIONS_BUDGET_MS,
);
