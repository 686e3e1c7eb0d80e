// The routes of issue 16's table with their budgets. Light and medium routes are measured at 32
// connections and judged against the bare baseline of the same run; portfolio routes at 8
// connections against absolute CPU budgets.
import { seededRandom } from '../bench-kit';
import { HELD_SYMBOLS } from './seed';

export type Budget =
  | { kind: 'light'; maxCpuRatio: 2; minRpsRatio: 0.5; maxP99Ms: 10 }
  | { kind: 'medium'; maxCpuRatio: 4; maxP99Ms: 25 }
  | { kind: 'portfolio'; maxCpuMs: number; maxP99Ms: 50 };

export interface BenchRoute {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  connections: number;
  budget: Budget;
}

const LIGHT: Budget = { kind: 'light', maxCpuRatio: 2, minRpsRatio: 0.5, maxP99Ms: 10 };
const MEDIUM: Budget = { kind: 'medium', maxCpuRatio: 4, maxP99Ms: 25 };
const portfolio = (maxCpuMs: number): Budget => ({ kind: 'portfolio', maxCpuMs, maxP99Ms: 50 });

const SUBJECTS = ['Revenue', 'Quarterly profit', 'Guidance', 'Margin', 'Dividend', 'Subscriber growth'];
const MOVES = ['beats estimates', 'falls short of forecasts', 'surges', 'slumps', 'is unchanged', 'is cut'];
const CONTEXTS = ['as demand recovers', 'amid a chip shortage', 'after a recall', 'on strong cloud sales'];

/** 100 short financial headlines, the same every run. */
export function sentimentTexts(): string[] {
  const random = seededRandom(100);
  const pick = (words: string[]) => words[Math.floor(random() * words.length)];
  return Array.from(
    { length: 100 },
    (_, index) =>
      `${pick(SUBJECTS)} at ${HELD_SYMBOLS[index % HELD_SYMBOLS.length]} ${pick(MOVES)} ${pick(CONTEXTS)}`,
  );
}

export function benchRoutes(): BenchRoute[] {
  const equalWeights = HELD_SYMBOLS.map((symbol) => ({ symbol, weight: 100 / HELD_SYMBOLS.length }));
  return [
    { name: 'GET /auth/me', method: 'GET', path: '/api/v1/auth/me', connections: 32, budget: LIGHT },
    {
      name: 'GET /market/stock/MSFT (cached)',
      method: 'GET',
      path: '/api/v1/market/stock/MSFT',
      connections: 32,
      budget: LIGHT,
    },
    {
      name: 'GET /preferences/',
      method: 'GET',
      path: '/api/v1/preferences/',
      connections: 32,
      budget: LIGHT,
    },
    {
      name: 'GET /market/stocks/batch (10)',
      method: 'GET',
      path: `/api/v1/market/stocks/batch?symbols=${HELD_SYMBOLS.slice(0, 10).join(',')}`,
      connections: 32,
      budget: MEDIUM,
    },
    {
      name: 'GET /market/summary',
      method: 'GET',
      path: '/api/v1/market/summary',
      connections: 32,
      budget: MEDIUM,
    },
    { name: 'GET /market/news', method: 'GET', path: '/api/v1/market/news', connections: 32, budget: MEDIUM },
    {
      name: 'POST /news/sentiment (100 texts)',
      method: 'POST',
      path: '/api/v1/news/sentiment',
      body: JSON.stringify({ texts: sentimentTexts() }),
      connections: 32,
      budget: MEDIUM,
    },
    {
      name: 'GET /portfolio/transactions',
      method: 'GET',
      path: '/api/v1/portfolio/transactions',
      connections: 8,
      budget: portfolio(2),
    },
    {
      name: 'GET /portfolio/positions',
      method: 'GET',
      path: '/api/v1/portfolio/positions',
      connections: 8,
      budget: portfolio(2),
    },
    {
      name: 'POST /portfolio/rebalance (dry run)',
      method: 'POST',
      path: '/api/v1/portfolio/rebalance',
      body: JSON.stringify({ targets: equalWeights, dry_run: true }),
      connections: 8,
      budget: portfolio(10),
    },
    {
      name: 'GET /portfolio/risk-metrics',
      method: 'GET',
      path: '/api/v1/portfolio/risk-metrics',
      connections: 8,
      budget: portfolio(10),
    },
    {
      name: 'GET /portfolio/risk-metrics?lookback_days=1260',
      method: 'GET',
      path: '/api/v1/portfolio/risk-metrics?lookback_days=1260',
      connections: 8,
      budget: portfolio(25),
    },
    {
      name: 'GET /portfolio/summary',
      method: 'GET',
      path: '/api/v1/portfolio/summary',
      connections: 8,
      budget: portfolio(10),
    },
    {
      name: 'GET /portfolio/ (overview)',
      method: 'GET',
      path: '/api/v1/portfolio/',
      connections: 8,
      budget: portfolio(10),
    },
  ];
}

/** What autocannon sends for `route` to the service at `baseUrl`, as the seeded user. */
export function routeRequest(baseUrl: string, route: BenchRoute, accessToken: string) {
  return {
    url: `${baseUrl}${route.path}`,
    method: route.method,
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(route.body ? { 'content-type': 'application/json' } : {}),
    },
    body: route.body,
    connections: route.connections,
  };
}
