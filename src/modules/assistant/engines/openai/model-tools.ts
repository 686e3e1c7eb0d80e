import type { PrivacyLevel } from '../../../preferences';
import { AnswerSource } from '../../tools/answer-source';
import { AssistantTools } from '../../tools/assistant-tools.service';

interface ModelTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  portfolio: boolean;
  /** Results carry text written by third parties (news), which the tool message marks as data. */
  thirdPartyText?: true;
  run(
    tools: AssistantTools,
    userId: number,
    args: Record<string, unknown>,
  ): Promise<{ data: unknown; sources: AnswerSource[] }>;
}

const NO_ARGS = { type: 'object', properties: {}, additionalProperties: false };
const SYMBOL_ARG = {
  type: 'object',
  properties: { symbol: { type: 'string', description: 'Ticker, e.g. AAPL' } },
  required: ['symbol'],
  additionalProperties: false,
};

const text = (args: Record<string, unknown>, key: string): string => {
  const value = args[key];
  if (typeof value !== 'string' || value.trim() === '' || value.length > 100) {
    throw new ToolArgumentError(`"${key}" must be a non-empty string`);
  }
  return value;
};

export class ToolArgumentError extends Error {}

/** The same read-only tools the offline engine uses, described for function calling. */
export const MODEL_TOOLS: ModelTool[] = [
  {
    name: 'portfolio_summary',
    description:
      "The user's portfolio totals, sector allocation, best/worst holdings and time-weighted returns (percent).",
    parameters: NO_ARGS,
    portfolio: true,
    run: (tools, userId) => tools.portfolioSummary(userId),
  },
  {
    name: 'positions',
    description: "The user's open positions, heaviest first.",
    parameters: NO_ARGS,
    portfolio: true,
    run: (tools, userId) => tools.positions(userId),
  },
  {
    name: 'risk_metrics',
    description:
      "Risk of the user's holdings over the last year (volatility, beta, VaR, drawdown) and whether it fits their risk tolerance.",
    parameters: NO_ARGS,
    portfolio: true,
    run: (tools, userId) => tools.riskMetrics(userId),
  },
  {
    name: 'rebalance_dry_run',
    description:
      'A dry-run rebalance toward equal weights (over preferred sectors, else holdings). Records nothing.',
    parameters: NO_ARGS,
    portfolio: true,
    run: (tools, userId) => tools.rebalanceDryRun(userId),
  },
  {
    name: 'preferences',
    description: "The user's investment preferences.",
    parameters: NO_ARGS,
    portfolio: true,
    run: (tools, userId) => tools.preferencesOf(userId),
  },
  {
    name: 'quote',
    description: 'The latest quote of one stock; null when the symbol is unknown.',
    parameters: SYMBOL_ARG,
    portfolio: false,
    run: (tools, _userId, args) => tools.quote(text(args, 'symbol')),
  },
  {
    name: 'batch_quotes',
    description: 'Quotes of up to 10 stocks.',
    parameters: {
      type: 'object',
      properties: { symbols: { type: 'array', items: { type: 'string' }, maxItems: 10 } },
      required: ['symbols'],
      additionalProperties: false,
    },
    portfolio: false,
    run: (tools, _userId, args) => {
      const symbols = args.symbols;
      if (
        !Array.isArray(symbols) ||
        symbols.length === 0 ||
        symbols.length > 10 ||
        !symbols.every((s) => typeof s === 'string')
      ) {
        throw new ToolArgumentError('"symbols" must be 1 to 10 strings');
      }
      return tools.quotes(symbols as string[]);
    },
  },
  {
    name: 'market_summary',
    description: "Today's index levels and the market's top gainers and losers.",
    parameters: NO_ARGS,
    portfolio: false,
    run: (tools) => tools.marketSummary(),
  },
  {
    name: 'news',
    description: 'Recent news about one stock, each with a sentiment label.',
    parameters: SYMBOL_ARG,
    portfolio: false,
    thirdPartyText: true,
    run: (tools, _userId, args) => tools.newsFor(text(args, 'symbol')),
  },
  {
    name: 'symbol_search',
    description: 'Find tickers by company name.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    },
    portfolio: false,
    run: (tools, _userId, args) => tools.searchSymbols(text(args, 'query')),
  },
];

/** `minimal` offers no portfolio tool at all. */
export function toolsFor(privacy: PrivacyLevel): ModelTool[] {
  return privacy === 'minimal' ? MODEL_TOOLS.filter((tool) => !tool.portfolio) : MODEL_TOOLS;
}

/** Keys that carry money amounts or share counts: `limited` keeps weights and percentages only. */
const AMOUNT_KEYS = new Set([
  'total_value',
  'total_cost',
  'unrealized_pnl',
  'realized_pnl',
  'day_change',
  'market_value',
  'quantity',
  'var_95_amount',
  'value',
  'cash',
]);

/** What the model may see of a tool result under the user's privacy level. */
export function redactForModel(data: unknown, privacy: PrivacyLevel): unknown {
  if (privacy === 'full') return data;
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !AMOUNT_KEYS.has(key))
        .map(([key, child]) => [key, strip(child)]),
    );
  };
  return strip(data);
}
