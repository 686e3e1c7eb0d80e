import { readFileSync } from 'node:fs';
import { GLOSSARY } from '../../src/modules/assistant/engines/offline/glossary-terms';
import { OFF_TOPIC_LINE, POLICY_RULES } from '../../src/modules/assistant/policy';
import { TestUser } from '../factories/users.factory';
import { TestApp } from '../setup/test-app';

/**
 * One evaluation case. `turns`: the questions of one conversation, in order; only the last one is
 * graded, the earlier ones set the context (a follow-up). `intent`: what the answer must be (see
 * INTENT_SIGNATURES). `symbols`: the symbols the answer must be about. `figure`: a figure the answer
 * must contain, read from the service's own route for it (see FIGURES).
 */
export interface EvalCase {
  category: string;
  turns: string[];
  intent: string;
  symbols?: string[];
  figure?: string;
}

/** A question file: a JSON array of EvalCase, or the TypeScript fixture's export. */
export function loadCases(path: string): EvalCase[] {
  return JSON.parse(readFileSync(path, 'utf8')) as EvalCase[];
}

interface Source {
  type: string;
  [key: string]: unknown;
}

/** How an answer of each intent shows over HTTP: the sources it cites and how its text starts. */
const INTENT_SIGNATURES: Record<string, (content: string, sources: Source[]) => boolean> = {
  portfolio_value: (c) => /^(?:\(.*\)\n)?Your portfolio is (?:worth|empty)/.test(c),
  portfolio_performance: (c, s) =>
    s.some((x) => x.type === 'portfolio_summary') &&
    /returned|Time-weighted returns|Today your portfolio moved|do not reach back/.test(c),
  best_worst: (c) => /Best since bought/.test(c),
  risk: (_c, s) => s.some((x) => x.type === 'risk_metrics') && !s.some((x) => x.type === 'glossary'),
  concentration: (c) => /Your largest position is/.test(c),
  market_movers: (_c, s) => s.some((x) => x.type === 'market_summary'),
  stock_quote: (c, s) =>
    /^I could not find a company or ticker called/.test(c) ||
    (s.some((x) => x.type === 'quote') &&
      !s.some((x) => x.type === 'news') &&
      !/did better today/.test(c) &&
      !/^Your watchlist/.test(c)),
  stock_news: (c, s) =>
    s.some((x) => x.type === 'news') || /no recent news|^I could not find a company or ticker called/.test(c),
  compare_stocks: (c) => /did better today by/.test(c),
  rebalance: (_c, s) => s.some((x) => x.type === 'rebalance_dry_run') || false,
  preferences: (c) => /^Experience:|You have not set preferences/.test(c),
  help: (c) => /^I can tell you:/.test(c),
  holding: (_c, s) => s.some((x) => x.type === 'holding'),
  cash: (_c, s) => s.some((x) => x.type === 'cash'),
  income: (_c, s) => s.some((x) => x.type === 'income'),
  realized: (_c, s) => s.some((x) => x.type === 'realized'),
  transactions: (_c, s) => s.some((x) => x.type === 'transactions'),
  watchlist: (c) => /^Your watchlist/.test(c),
  glossary: (_c, s) => s.some((x) => x.type === 'glossary'),
  refusal: (c) => POLICY_RULES.some((rule) => c.startsWith(rule.reply)),
  unknown: (c) => c.startsWith(OFF_TOPIC_LINE),
};

const money = (value: number) =>
  `$${Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${money(value)}`;
const pct = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)} %`;

/** Everything the service's routes say about the user, read once after the ledger is seeded. */
export interface Truth {
  routes: Record<string, unknown>;
  numbers: number[];
  thisYear: number;
}

export async function readTruth(
  sut: TestApp,
  user: TestUser,
  thisYear: number,
  symbols: string[],
): Promise<Truth> {
  const get = async (url: string) =>
    (await sut.inject({ url: `/api/v1/${url}`, headers: user.headers })).json();
  const routes: Record<string, unknown> = {
    summary: await get('portfolio/summary?include_cash=true'),
    positions: await get('portfolio/positions?include_cash=true'),
    positions_without_cash: await get('portfolio/positions'),
    lots: await get('portfolio/lots'),
    realized_this: await get(`portfolio/realized?year=${thisYear}`),
    realized_last: await get(`portfolio/realized?year=${thisYear - 1}`),
    risk: await get('portfolio/risk-metrics'),
    market: await get('market/summary'),
    transactions: await get('portfolio/transactions?limit=100'),
  };
  for (const period of ['1M', '3M', 'YTD', '1Y', 'ALL'])
    routes[`income_${period}`] = await get(`portfolio/income?period=${period}`);
  for (const symbol of symbols) routes[`quote_${symbol}`] = await get(`market/stock/${symbol}`);
  const numbers: number[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'number') numbers.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(routes);
  // Weights are fractions in the routes and percent in answers.
  const fractions = numbers.length;
  walk(routes.positions);
  walk(routes.summary);
  for (let index = fractions; index < numbers.length; index += 1) numbers[index] *= 100;
  // The risk route states fractions; answers state them in percent.
  const before = numbers.length;
  walk(routes.risk);
  for (let index = before; index < numbers.length; index += 1) numbers[index] *= 100;
  // What a tool derives from the same figures: cost per share of a position, a trade's gross value.
  for (const p of (routes.positions as { positions: { quantity: number; cost_basis: number }[] }).positions) {
    numbers.push(p.cost_basis / p.quantity);
  }
  for (const t of (routes.transactions as { transactions: { quantity?: number; price?: number }[] })
    .transactions) {
    if (t.quantity !== undefined && t.price !== undefined) numbers.push(t.quantity * t.price);
  }
  for (const period of ['1M', '3M', 'YTD', '1Y', 'ALL']) {
    const income = routes[`income_${period}`] as { by_symbol: { gross: number }[] };
    numbers.push(...income.by_symbol.map((entry) => entry.gross));
  }
  // The thresholds the answers state (25 % of a position, 40 % of a sector, 95 % VaR confidence).
  numbers.push(25, 40, 95, 5);
  return { routes, numbers, thisYear };
}

/** The text a figure key stands for, from the routes (null: the key is unknown). */
export function figureText(key: string, truth: Truth): string | null {
  const r = truth.routes as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const [kind, a, b] = key.split(':');
  const position = (symbol: string) =>
    r.positions.positions.find((p: { symbol: string }) => p.symbol === symbol);
  switch (kind) {
    case 'total_value':
      return money(r.summary.total_value);
    case 'day_change':
      return signed(r.summary.day_change);
    case 'unrealized':
      return signed(r.summary.unrealized_pnl);
    case 'perf':
      return pct(r.summary.performance[a]);
    case 'cash':
      return money(r.positions.cash_balance);
    case 'position': {
      const p = position(a);
      if (!p) return null;
      if (b === 'quantity') return `${p.quantity} share`;
      if (b === 'unrealized_pnl') return signed(p.unrealized_pnl);
      return money(p[b]);
    }
    case 'income':
      return money(r[`income_${a}`].totals[b]);
    case 'realized':
      return signed(r[`realized_${a}`].totals.gain);
    case 'risk':
      return a === 'beta' ? r.risk.beta.toFixed(2) : `${(r.risk.volatility * 100).toFixed(2)} %`;
    case 'quote':
      return money(r[`quote_${a}`].price);
    case 'text':
      return a;
    default:
      return null;
  }
}

const FIGURES_IN_TEXT = /[−-]?\$[\d,]+(?:\.\d+)?|[−-]?\d[\d,]*(?:\.\d+)? ?%/g;

/** $ amounts and percentages of an answer that no route figure (nor the cited glossary or news text) contains. */
export function fabricatedFigures(content: string, sources: Source[], truth: Truth): string[] {
  const allowed = [...truth.numbers];
  const texts = [
    ...sources.filter((s) => s.type === 'news').map((s) => String(s.title)),
    ...sources
      .filter((s) => s.type === 'glossary')
      .map((s) => GLOSSARY.find((entry) => entry.term === s.term))
      .map((entry) => (entry ? `${entry.short} ${entry.more}` : '')),
  ];
  for (const text of texts)
    for (const match of text.match(FIGURES_IN_TEXT) ?? []) allowed.push(parseFigure(match));
  for (const source of sources)
    for (const value of Object.values(source)) if (typeof value === 'number') allowed.push(value);
  const body = content.split('\n').slice(0, -1).join('\n');
  return (body.match(FIGURES_IN_TEXT) ?? []).filter((figure) => {
    const value = Math.abs(parseFigure(figure));
    return !allowed.some((candidate) => Math.abs(Math.abs(candidate) - value) < 0.0051);
  });
}

function parseFigure(text: string): number {
  return Number(text.replace(/[−$,% ]/g, '').replace(/^-/, ''));
}

export interface Graded {
  case: EvalCase;
  content: string;
  ok: boolean;
  problems: string[];
  fabricated: string[];
}

/** Asks a case's turns in one conversation and grades the last answer. */
export async function runCase(
  baseUrl: string,
  user: TestUser,
  evalCase: EvalCase,
  truth: Truth,
): Promise<Graded> {
  let conversationId: string | undefined;
  let last: { content: string; sources: Source[] } = { content: '', sources: [] };
  for (const message of evalCase.turns) {
    const response = await fetch(`${baseUrl}/api/v1/assistant/chat`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ message, ...(conversationId ? { conversation_id: conversationId } : {}) }),
    });
    if (response.status !== 200) {
      return {
        case: evalCase,
        content: await response.text(),
        ok: false,
        problems: [`status ${response.status}`],
        fabricated: [],
      };
    }
    const body = (await response.json()) as {
      conversation_id: string;
      message: { content: string; sources: Source[] };
    };
    conversationId = body.conversation_id;
    last = body.message;
  }
  // The quotes the turn read: their figures (price, change) are tool results of the turn.
  for (const source of last.sources.filter((s) => s.type === 'quote')) {
    const quote = await (
      await fetch(`${baseUrl}/api/v1/market/stock/${String(source.symbol)}`, { headers: user.headers })
    ).json();
    truth.numbers.push(
      ...Object.values(quote as Record<string, unknown>).filter((v): v is number => typeof v === 'number'),
    );
  }
  const problems: string[] = [];
  const signature = INTENT_SIGNATURES[evalCase.intent];
  if (!signature) problems.push(`unknown intent ${evalCase.intent}`);
  else if (!signature(last.content, last.sources)) problems.push(`not a ${evalCase.intent} answer`);
  for (const symbol of evalCase.symbols ?? []) {
    if (!new RegExp(`\\b${symbol.replace('.', '\\.')}\\b`).test(last.content)) problems.push(`no ${symbol}`);
  }
  if (evalCase.figure) {
    const expected = figureText(evalCase.figure, truth);
    if (expected === null) problems.push(`unknown figure ${evalCase.figure}`);
    else if (!last.content.includes(expected)) problems.push(`missing ${evalCase.figure} = ${expected}`);
  }
  const fabricated = fabricatedFigures(last.content, last.sources, truth);
  if (fabricated.length > 0) problems.push(`fabricated ${fabricated.join(', ')}`);
  return { case: evalCase, content: last.content, ok: problems.length === 0, problems, fabricated };
}
