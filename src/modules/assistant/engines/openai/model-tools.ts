import { ExposureResponse, RelatedCompaniesResponse } from '../../../graph';
import type { PrivacyLevel } from '../../../preferences';
import { AnswerSource } from '../../tools/answer-source';
import { AssistantTools } from '../../tools/assistant-tools.service';
import { MarketGraphTools } from '../../tools/market-graph-tools.service';
import { glossaryEntry } from '../offline/glossary';

/** The services a model's tool calls read: the same tools the offline engine answers from. */
export interface ModelToolbox {
  assistant: AssistantTools;
  graph: MarketGraphTools;
}

interface ModelTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  portfolio: boolean;
  /** Results carry text written by third parties (news), which the tool message marks as data. */
  thirdPartyText?: true;
  run(
    toolbox: ModelToolbox,
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

const INCOME_PERIODS = ['1M', '3M', 'YTD', '1Y', 'ALL'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TRANSACTION_KINDS = ['buy', 'sell', 'dividend', 'deposit', 'withdrawal', 'fee', 'interest', 'split'];

const optionalText = (args: Record<string, unknown>, key: string): string | undefined =>
  args[key] === undefined || args[key] === null ? undefined : text(args, key);

/** The same read-only tools the offline engine uses, described for function calling. */
export const MODEL_TOOLS: ModelTool[] = [
  {
    name: 'portfolio_summary',
    description:
      "The user's portfolio totals, sector allocation, best/worst holdings and time-weighted returns (percent).",
    parameters: NO_ARGS,
    portfolio: true,
    run: ({ assistant: tools }, userId) => tools.portfolioSummary(userId),
  },
  {
    name: 'positions',
    description: "The user's open positions, heaviest first.",
    parameters: NO_ARGS,
    portfolio: true,
    run: ({ assistant: tools }, userId) => tools.positions(userId),
  },
  {
    name: 'risk_metrics',
    description:
      "Risk of the user's holdings over the last year (volatility, beta, VaR, drawdown) and whether it fits their risk tolerance.",
    parameters: NO_ARGS,
    portfolio: true,
    run: ({ assistant: tools }, userId) => tools.riskMetrics(userId),
  },
  {
    name: 'rebalance_dry_run',
    description:
      'A dry-run rebalance toward equal weights (over preferred sectors, else holdings). Records nothing.',
    parameters: NO_ARGS,
    portfolio: true,
    run: ({ assistant: tools }, userId) => tools.rebalanceDryRun(userId),
  },
  {
    name: 'preferences',
    description: "The user's investment preferences.",
    parameters: NO_ARGS,
    portfolio: true,
    run: ({ assistant: tools }, userId) => tools.preferencesOf(userId),
  },
  {
    name: 'holding',
    description:
      "The user's position in one symbol: quantity, cost per share and basis, value, unrealized P&L, weight, lots and realized P&L of its sells; held=false when none is open.",
    parameters: SYMBOL_ARG,
    portfolio: true,
    run: ({ assistant: tools }, userId, args) =>
      tools.holdingDetail(userId, text(args, 'symbol').toUpperCase()),
  },
  {
    name: 'cash',
    description: "The user's cash balance, with total deposits and withdrawals.",
    parameters: NO_ARGS,
    portfolio: true,
    run: ({ assistant: tools }, userId) => tools.cash(userId),
  },
  {
    name: 'income',
    description: 'Dividends (gross, withheld, net) and interest over a period, by symbol.',
    parameters: {
      type: 'object',
      properties: { period: { type: 'string', enum: [...INCOME_PERIODS] } },
      additionalProperties: false,
    },
    portfolio: true,
    run: ({ assistant: tools }, userId, args) => {
      const period = optionalText(args, 'period') ?? 'YTD';
      if (!(INCOME_PERIODS as readonly string[]).includes(period)) {
        throw new ToolArgumentError(`"period" must be one of ${INCOME_PERIODS.join(', ')}`);
      }
      return tools.income(userId, period as (typeof INCOME_PERIODS)[number]);
    },
  },
  {
    name: 'realized',
    description:
      'Realized gains of one calendar year (default: this year) by closed lot, short- and long-term.',
    parameters: {
      type: 'object',
      properties: { year: { type: 'integer', minimum: 1970, maximum: 2100 } },
      additionalProperties: false,
    },
    portfolio: true,
    run: ({ assistant: tools }, userId, args) => {
      const year = args.year;
      if (
        year !== undefined &&
        (!Number.isInteger(year) || (year as number) < 1970 || (year as number) > 2100)
      ) {
        throw new ToolArgumentError('"year" must be a year between 1970 and 2100');
      }
      return tools.realized(userId, year as number | undefined);
    },
  },
  {
    name: 'transactions',
    description:
      "The user's ledger entries between two New York dates (inclusive), newest first, at most 20.",
    parameters: {
      type: 'object',
      properties: {
        from: { type: 'string', description: 'YYYY-MM-DD' },
        to: { type: 'string', description: 'YYYY-MM-DD' },
        kind: { type: 'string', enum: TRANSACTION_KINDS },
      },
      required: ['from', 'to'],
      additionalProperties: false,
    },
    portfolio: true,
    run: ({ assistant: tools }, userId, args) => {
      const from = text(args, 'from');
      const to = text(args, 'to');
      if (!DATE.test(from) || !DATE.test(to))
        throw new ToolArgumentError('"from" and "to" must be YYYY-MM-DD');
      const kind = optionalText(args, 'kind') ?? null;
      if (kind !== null && !TRANSACTION_KINDS.includes(kind)) {
        throw new ToolArgumentError(`"kind" must be one of ${TRANSACTION_KINDS.join(', ')}`);
      }
      return tools.transactions(userId, from, to, kind);
    },
  },
  {
    name: 'glossary',
    description: "What an investing term means, from the assistant's glossary (P/E, beta, ETF, FIFO, …).",
    parameters: {
      type: 'object',
      properties: { term: { type: 'string' } },
      required: ['term'],
      additionalProperties: false,
    },
    portfolio: false,
    run: async (_toolbox, _userId, args) => {
      const entry = glossaryEntry(text(args, 'term'));
      return entry
        ? {
            data: { term: entry.term, meaning: entry.short, explanation: entry.more },
            sources: [{ type: 'glossary', term: entry.term }],
          }
        : { data: null, sources: [] };
    },
  },
  {
    name: 'related_companies',
    description:
      'Companies like one company, from the market graph: the same sub-industry or sector, and those whose daily returns moved with it (correlation of 0.6 or more over 252 sessions), each with why.',
    parameters: SYMBOL_ARG,
    portfolio: false,
    run: async ({ graph }, userId, args) => {
      const found = await graph.related(userId, text(args, 'symbol').toUpperCase());
      return {
        data: {
          industry: RelatedCompaniesResponse.from(found.data.industry),
          correlation: RelatedCompaniesResponse.from(found.data.correlation),
        },
        sources: found.sources,
      };
    },
  },
  {
    name: 'portfolio_exposure',
    description:
      "The user's hidden concentration from the market graph: holdings grouped into clusters that move together (combined weight, average correlation), the effective number of independent bets, the largest single weight, and recent news about companies one hop from a holding (indirect news, with the path).",
    parameters: NO_ARGS,
    portfolio: true,
    thirdPartyText: true,
    run: async ({ graph }, userId) => {
      const exposure = await graph.exposure(userId);
      return { data: ExposureResponse.from(exposure.data), sources: exposure.sources };
    },
  },
  {
    name: 'quote',
    description: 'The latest quote of one stock; null when the symbol is unknown.',
    parameters: SYMBOL_ARG,
    portfolio: false,
    run: ({ assistant: tools }, _userId, args) => tools.quote(text(args, 'symbol')),
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
    run: ({ assistant: tools }, _userId, args) => {
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
    run: ({ assistant: tools }) => tools.marketSummary(),
  },
  {
    name: 'news',
    description: 'Recent news about one stock, each with a sentiment label.',
    parameters: SYMBOL_ARG,
    portfolio: false,
    thirdPartyText: true,
    run: ({ assistant: tools }, _userId, args) => tools.newsFor(text(args, 'symbol')),
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
    run: ({ assistant: tools }, _userId, args) => tools.searchSymbols(text(args, 'query')),
  },
];

/** `minimal` offers no portfolio tool at all. */
export function toolsFor(privacy: PrivacyLevel): ModelTool[] {
  return privacy === 'minimal' ? MODEL_TOOLS.filter((tool) => !tool.portfolio) : MODEL_TOOLS;
}

/**
 * The only keys of a tool result that may leave the service under `limited`: names, dates, labels,
 * weights, percentages, ratios and market prices. Anything else — every amount or quantity of the
 * user's (total_value, cost_basis, cash_balance, quantity, gain, …) and any key added later — is
 * dropped, so a new field stays private until it is listed here.
 */
export const LIMITED_ALLOWED_KEYS: ReadonlySet<string> = new Set([
  // identities, labels, dates
  'symbol',
  'name',
  'sector',
  'title',
  'url',
  'source',
  'published_at',
  'sentiment',
  'score',
  'query',
  'matches',
  'as_of',
  'period',
  'year',
  'method',
  'kind',
  'side',
  'date',
  'from',
  'to',
  'acquired_on',
  'held',
  'notes',
  'basis',
  'term',
  'meaning',
  'explanation',
  // weights, percentages, ratios and counts that are not amounts
  'weight_percent',
  'target_percent',
  'unrealized_pnl_percent',
  'day_change_percent',
  'change_percent',
  'volatility_percent',
  'max_drawdown_percent',
  'var_95_percent',
  'turnover_percent',
  'beta',
  'sharpe_ratio',
  'effective_holdings',
  'positions_count',
  'risk_level',
  'risk_tolerance',
  'matches_tolerance',
  // market data, the same for everyone
  'price',
  'change',
  // the market graph: shares of the holdings (0..1), correlations, paths
  'weight',
  'combined_weight',
  'average_correlation',
  'central_member',
  'effective_bets',
  'largest_cluster_weight',
  'largest_single_weight',
  'sentiment_score',
  'holding',
  'why',
  'path',
  'by',
  // containers
  'totals',
  'positions',
  'sectors',
  'best',
  'worst',
  'performance',
  '1M',
  '3M',
  'YTD',
  '1Y',
  'ALL',
  'largest_holding',
  'trades',
  'drift',
  'indices',
  'gainers',
  'losers',
  'items',
  'lots',
  'by_symbol',
  'industry',
  'correlation',
  'related',
  'clusters',
  'members',
  'indirect_news',
  // preferences (no amounts)
  'experience_level',
  'investment_style',
  'investment_types',
  'brokerage_platforms',
  'brokerage_platform',
  'analysis_depth',
  'information_sources',
  'type',
  'priority',
  'market_sectors',
  'geographic_focus',
  'esg_importance',
  'explanation_style',
  'privacy_level',
  'watchlist',
  'daily_summary_time',
  'alert_frequency',
  'onboarding_completed',
]);

/** What the model may see of a tool result under the user's privacy level. */
export function redactForModel(data: unknown, privacy: PrivacyLevel): unknown {
  if (privacy === 'full') return data;
  const keep = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(keep);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => LIMITED_ALLOWED_KEYS.has(key))
        .map(([key, child]) => [key, keep(child)]),
    );
  };
  return keep(data);
}
