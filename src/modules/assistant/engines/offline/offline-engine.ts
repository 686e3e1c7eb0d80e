import { Injectable, Logger } from '@nestjs/common';
import { AnswerSource } from '../../tools/answer-source';
import { AssistantTools, ToolResult } from '../../tools/assistant-tools.service';
import { MarketGraphTools } from '../../tools/market-graph-tools.service';
import { ChatEngine, ChatTurn, DeltaSink, DISCLAIMER, EngineAnswer } from '../chat-engine';
import { EntityExtractor, ExtractedEntities } from './entity-extractor';
import { money, PERIOD_NAMES, pct, plainPct, sectorName, signedMoney } from './format';
import { classifyIntent, Intent } from './intent-classifier';
import {
  concentrationAnswer,
  indirectNewsAnswer,
  marketGraphQuestion,
  relatedAnswer,
} from './market-graph-answers';

/** What the offline engine can answer, as the help and fallback replies list it. */
export const CAPABILITIES = [
  'what your portfolio is worth and how it did today or over 1M, 3M, YTD, 1Y or since you started',
  'your best and worst holdings',
  'your risk (volatility, beta, VaR) and whether it fits your risk tolerance',
  'concentration and sector exposure',
  'what moved in the market today',
  "a stock's price, move, news and sentiment (by ticker or company name)",
  'comparing two stocks',
  'whether to rebalance (a dry run; nothing is traded)',
  'what your preferences mean',
  'companies like a stock, whether your holdings move together, and news that reaches them indirectly',
];

const SUGGESTIONS: Record<Intent, string[]> = {
  portfolio_value: ['How did my portfolio do this year?', 'What are my best and worst holdings?'],
  portfolio_performance: ['What are my best and worst holdings?', 'How risky is my portfolio?'],
  best_worst: ['Any news on my worst holding?', 'Should I rebalance?'],
  risk: ['Is my portfolio diversified?', 'What are my preferences?'],
  concentration: ['Should I rebalance?', 'How risky is my portfolio?'],
  market_movers: ['What is my portfolio worth?', 'Any news on Apple?'],
  stock_quote: ['Any news on it?', 'Compare Apple and Microsoft'],
  stock_news: ['What is its price?', 'What moved in the market today?'],
  compare_stocks: ['Any news on them?', 'What moved in the market today?'],
  rebalance: ['Is my portfolio diversified?', 'How risky is my portfolio?'],
  preferences: ['How risky is my portfolio?', 'What can you do?'],
  help: ['What is my portfolio worth?', 'What moved in the market today?'],
  market_graph: [
    'Am I more concentrated than I think?',
    'Is there news that affects my holdings indirectly?',
  ],
  unknown: ['What can you do?', 'What is my portfolio worth?'],
};

interface Draft {
  lines: string[];
  sources: AnswerSource[];
}

/**
 * The default engine: recognises the question, calls the tools it needs and writes the answer
 * from their results only. Deterministic (same data, same text) and sends nothing anywhere.
 */
@Injectable()
export class OfflineEngine extends ChatEngine {
  private readonly logger = new Logger(OfflineEngine.name);
  private extractor: Promise<EntityExtractor> | null = null;

  constructor(
    private readonly tools: AssistantTools,
    private readonly graphTools: MarketGraphTools,
  ) {
    super();
  }

  async understand(message: string): Promise<{ intent: Intent; entities: ExtractedEntities }> {
    const entities = (await this.entityExtractor()).extract(message);
    return { intent: classifyIntent(message, entities), entities };
  }

  /** Follow-up questions for a message, whichever engine answers it. */
  async suggestionsFor(message: string): Promise<string[]> {
    return SUGGESTIONS[(await this.understand(message)).intent];
  }

  async answer(turn: ChatTurn, onDelta: DeltaSink = () => undefined): Promise<EngineAnswer> {
    const { intent, entities } = await this.understand(turn.message);
    // A failing data source (say, the market provider) is an answer, not a 500 on the chat.
    const draft = await this.write(intent, entities, turn).catch((error: unknown): Draft => {
      this.logger.warn(
        `The ${intent} answer failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return {
        lines: ['I could not reach the data I need for that right now; please try again shortly.'],
        sources: [],
      };
    });
    const content = [...draft.lines, '', DISCLAIMER].join('\n');
    for (const piece of content.match(/[^\n]*\n|[^\n]+$/g) ?? []) onDelta(piece);
    return { content, sources: draft.sources, suggestions: SUGGESTIONS[intent] };
  }

  private entityExtractor(): Promise<EntityExtractor> {
    this.extractor ??= this.tools.symbolDirectory().then((directory) => new EntityExtractor(directory));
    this.extractor.catch(() => (this.extractor = null));
    return this.extractor;
  }

  private write(intent: Intent, entities: ExtractedEntities, turn: ChatTurn): Promise<Draft> {
    switch (intent) {
      case 'portfolio_value':
        return this.portfolioValue(turn.userId);
      case 'portfolio_performance':
        return this.performance(turn.userId, entities);
      case 'best_worst':
        return this.bestWorst(turn.userId);
      case 'risk':
        return this.risk(turn.userId);
      case 'concentration':
        return this.concentration(turn.userId);
      case 'market_movers':
        return this.marketMovers();
      case 'stock_quote':
        return this.stock(entities, false);
      case 'stock_news':
        return this.stock(entities, true);
      case 'compare_stocks':
        return this.compare(entities);
      case 'rebalance':
        return this.rebalance(turn.userId);
      case 'preferences':
        return this.preferences(turn.userId);
      case 'market_graph':
        return this.marketGraph(turn, entities);
      case 'help':
        return Promise.resolve({
          lines: ['I can tell you:', ...CAPABILITIES.map((item) => `- ${item}`)],
          sources: [],
        });
      case 'unknown':
        return Promise.resolve({
          lines: ["I can't answer that one. I can tell you:", ...CAPABILITIES.map((item) => `- ${item}`)],
          sources: [],
        });
    }
  }

  private async marketGraph(turn: ChatTurn, entities: ExtractedEntities): Promise<Draft> {
    const question = marketGraphQuestion(turn.message, entities.symbols);
    if (question === 'related') {
      const related = await this.graphTools.related(turn.userId, entities.symbols[0]);
      return { lines: relatedAnswer(related.data), sources: related.sources };
    }
    const exposure = await this.graphTools.exposure(turn.userId);
    const lines =
      question === 'concentration' ? concentrationAnswer(exposure.data) : indirectNewsAnswer(exposure.data);
    return { lines, sources: exposure.sources };
  }

  private async portfolioValue(userId: number): Promise<Draft> {
    const holdings = await this.tools.holdings(userId);
    const s = holdings.data.totals;
    if (s.positions_count === 0) return emptyPortfolio(holdings);
    const top = holdings.data.positions
      .slice(0, 5)
      .map((p) => `${p.symbol} ${money(p.market_value)} (${plainPct(p.weight_percent)})`);
    return {
      lines: [
        `Your portfolio is worth ${money(s.total_value)} across ${s.positions_count} position${s.positions_count === 1 ? '' : 's'}.`,
        `Today: ${signedMoney(s.day_change)} (${pct(s.day_change_percent)}). Unrealized P&L: ${signedMoney(s.unrealized_pnl)} (${pct(s.unrealized_pnl_percent)}) on a cost of ${money(s.total_cost)}.`,
        `Largest positions: ${top.join(', ')}.`,
      ],
      sources: holdings.sources,
    };
  }

  private async performance(userId: number, entities: ExtractedEntities): Promise<Draft> {
    const summary = await this.tools.portfolioSummary(userId);
    const s = summary.data;
    if (s.positions_count === 0 && Object.values(s.performance).every((value) => value === null)) {
      return emptyPortfolio(summary);
    }
    const asked = entities.period;
    if (asked === '1D') {
      return {
        lines: [`Today your portfolio moved ${signedMoney(s.day_change)} (${pct(s.day_change_percent)}).`],
        sources: summary.sources,
      };
    }
    const tracked = ['1M', '3M', 'YTD', '1Y', 'ALL'];
    const lines: string[] = [];
    if (asked && tracked.includes(asked)) {
      const value = s.performance[asked];
      lines.push(
        value === null
          ? `Your trades do not reach back far enough to measure ${PERIOD_NAMES[asked]}.`
          : `Over ${PERIOD_NAMES[asked]} your portfolio returned ${pct(value)} (time-weighted, so deposits and sales do not count as gains).`,
      );
    } else if (asked) {
      lines.push(
        `I track 1 month, 3 months, year to date, 1 year and since your first trade, not ${PERIOD_NAMES[asked]}.`,
      );
    }
    const all = tracked
      .filter((period) => s.performance[period] !== null)
      .map((period) => `${period} ${pct(s.performance[period]!)}`);
    if (all.length > 0) lines.push(`Time-weighted returns: ${all.join(', ')}.`);
    lines.push(`Today: ${pct(s.day_change_percent)}; realized P&L so far ${signedMoney(s.realized_pnl)}.`);
    return { lines, sources: summary.sources };
  }

  private async bestWorst(userId: number): Promise<Draft> {
    const positions = await this.tools.positions(userId);
    if (positions.data.length === 0)
      return { lines: ['You have no open positions yet.'], sources: positions.sources };
    const ranked = [...positions.data].sort(
      (a, b) => b.unrealized_pnl_percent - a.unrealized_pnl_percent || a.symbol.localeCompare(b.symbol),
    );
    const describe = (p: (typeof ranked)[number]) =>
      `${p.symbol} ${pct(p.unrealized_pnl_percent)} (${signedMoney(p.unrealized_pnl)}; today ${pct(p.day_change_percent)})`;
    const best = ranked.slice(0, 3);
    const worst = ranked
      .slice(-3)
      .reverse()
      .filter((p) => !best.includes(p));
    const lines = [`Best since bought: ${best.map(describe).join(', ')}.`];
    if (worst.length > 0) lines.push(`Worst since bought: ${worst.map(describe).join(', ')}.`);
    const todayBest = [...positions.data].sort((a, b) => b.day_change_percent - a.day_change_percent)[0];
    const todayWorst = [...positions.data].sort((a, b) => a.day_change_percent - b.day_change_percent)[0];
    lines.push(
      `Today ${todayBest.symbol} moved most up (${pct(todayBest.day_change_percent)}), ${todayWorst.symbol} most down (${pct(todayWorst.day_change_percent)}).`,
    );
    return { lines, sources: positions.sources };
  }

  private async risk(userId: number): Promise<Draft> {
    const risk = await this.tools.riskMetrics(userId);
    const r = risk.data;
    if (r.risk_level === null) {
      return {
        lines: ['There is not enough history in your holdings to measure risk yet.', ...r.notes],
        sources: risk.sources,
      };
    }
    const lines = [`Your holdings' risk level is ${r.risk_level}.`];
    const figures: string[] = [];
    if (r.volatility_percent !== null)
      figures.push(`annualised volatility ${plainPct(r.volatility_percent)}`);
    if (r.beta !== null) figures.push(`beta ${r.beta.toFixed(2)} against the S&P 500`);
    if (r.var_95_percent !== null && r.var_95_amount !== null)
      figures.push(`1-day 95 % VaR ${plainPct(r.var_95_percent)} (${money(r.var_95_amount)})`);
    if (r.max_drawdown_percent !== null) figures.push(`max drawdown ${plainPct(r.max_drawdown_percent)}`);
    if (r.sharpe_ratio !== null) figures.push(`Sharpe ratio ${r.sharpe_ratio.toFixed(2)}`);
    if (figures.length > 0) lines.push(`Over the last year: ${figures.join(', ')}.`);
    if (r.risk_tolerance === null)
      lines.push('You have not set a risk tolerance, so I cannot say whether it fits you.');
    else
      lines.push(
        r.matches_tolerance
          ? `That fits your ${r.risk_tolerance} risk tolerance.`
          : `That does not fit your ${r.risk_tolerance} risk tolerance.`,
      );
    return { lines, sources: risk.sources };
  }

  private async concentration(userId: number): Promise<Draft> {
    const holdings = await this.tools.holdings(userId);
    const positions = { data: holdings.data.positions };
    if (positions.data.length === 0) return emptyPortfolio(holdings);
    const largest = positions.data[0];
    const sectors = holdings.data.totals.sectors.map(
      (s) => `${sectorName(s.sector)} ${plainPct(s.weight_percent)}`,
    );
    const effective = 1 / positions.data.reduce((sum, p) => sum + (p.weight_percent / 100) ** 2, 0);
    const topSector = holdings.data.totals.sectors[0];
    const lines = [
      `Your largest position is ${largest.symbol} at ${plainPct(largest.weight_percent)} of the portfolio; you hold ${positions.data.length} positions, worth about ${effective.toFixed(1)} equal-sized ones.`,
      `By sector: ${sectors.join(', ')}.`,
    ];
    if (largest.weight_percent > 25 || topSector.weight_percent > 40) {
      lines.push(
        `That is concentrated: ${largest.weight_percent > 25 ? `${largest.symbol} alone is over 25 %` : `${sectorName(topSector.sector)} is over 40 %`}.`,
      );
    } else lines.push('No single position is over 25 % and no sector over 40 %.');
    return { lines, sources: holdings.sources };
  }

  private async marketMovers(): Promise<Draft> {
    const market = await this.tools.marketSummary();
    const m = market.data;
    const list = (quotes: typeof m.gainers) =>
      quotes.map((q) => `${q.symbol} ${pct(q.change_percent)}`).join(', ');
    return {
      lines: [
        `Indices: ${m.indices.map((index) => `${index.name} ${index.value.toFixed(2)} (${pct(index.change_percent)})`).join(', ')}.`,
        `Top gainers: ${list(m.gainers)}.`,
        `Top losers: ${list(m.losers)}.`,
      ],
      sources: market.sources,
    };
  }

  private async resolve(
    entities: ExtractedEntities,
  ): Promise<{ symbols: string[]; missing: string[]; sources: AnswerSource[] }> {
    if (entities.symbols.length > 0 || entities.unknownNames.length === 0) {
      return { symbols: entities.symbols, missing: [], sources: [] };
    }
    const symbols: string[] = [];
    const missing: string[] = [];
    const sources: AnswerSource[] = [];
    for (const name of entities.unknownNames.slice(0, 2)) {
      const search = await this.tools.searchSymbols(name);
      const match = search.data.find(
        (candidate) =>
          candidate.symbol === name.toUpperCase() ||
          candidate.name.toLowerCase().startsWith(name.toLowerCase()),
      );
      if (match) {
        symbols.push(match.symbol);
        sources.push(...search.sources);
      } else missing.push(name);
    }
    return { symbols, missing, sources };
  }

  private async stock(entities: ExtractedEntities, withNews: boolean): Promise<Draft> {
    const { symbols, missing, sources } = await this.resolve(entities);
    if (symbols.length === 0) {
      if (missing.length > 0) {
        return {
          lines: [
            `I could not find a company or ticker called "${missing[0]}" in the market data, so I have no quote for it. Try its ticker symbol, e.g. AAPL.`,
          ],
          sources,
        };
      }
      if (withNews)
        return { lines: ['Which stock? Name a company or ticker, e.g. "Any news on Apple?"'], sources };
      return { lines: ['Which stock? Name a company or ticker, e.g. "How is MSFT doing?"'], sources };
    }
    const symbol = symbols[0];
    const quote = await this.tools.quote(symbol);
    const lines: string[] = [];
    const all: AnswerSource[] = [...sources, ...quote.sources];
    if (!quote.data) lines.push(`I could not find a quote for ${symbol}.`);
    else {
      const q = quote.data;
      lines.push(
        `${q.name} (${q.symbol}) is at ${money(q.price)}, ${signedMoney(q.change)} (${pct(q.change_percent)}) since the previous close.`,
      );
    }
    if (withNews) {
      const news = await this.tools.newsFor(symbol);
      all.push(...news.sources);
      if (news.data.items.length === 0) lines.push(`I found no recent news on ${symbol}.`);
      else {
        const counts = { positive: 0, negative: 0, neutral: 0 } as Record<string, number>;
        for (const item of news.data.items) counts[item.sentiment] += 1;
        lines.push(
          `Recent news (${news.data.items.length}): ${counts.positive} positive, ${counts.negative} negative, ${counts.neutral} neutral.`,
          ...news.data.items
            .slice(0, 3)
            .map((item) => `- "${item.title}" (${item.source}, ${item.sentiment})`),
        );
      }
    }
    return { lines, sources: all };
  }

  private async compare(entities: ExtractedEntities): Promise<Draft> {
    const quotes = await this.tools.quotes(entities.symbols.slice(0, 2));
    if (quotes.data.length < 2) return this.stock(entities, false);
    const [a, b] = quotes.data;
    const leader = a.change_percent >= b.change_percent ? a : b;
    return {
      lines: [
        `${a.name} (${a.symbol}): ${money(a.price)}, ${pct(a.change_percent)} today.`,
        `${b.name} (${b.symbol}): ${money(b.price)}, ${pct(b.change_percent)} today.`,
        `${leader.symbol} did better today by ${Math.abs(a.change_percent - b.change_percent).toFixed(2)} percentage points.`,
      ],
      sources: quotes.sources,
    };
  }

  private async rebalance(userId: number): Promise<Draft> {
    const plan = await this.tools.rebalanceDryRun(userId);
    if (!plan.data)
      return {
        lines: ['You have no open positions, so there is nothing to rebalance.'],
        sources: plan.sources,
      };
    const p = plan.data;
    if (p.trades.length === 0) {
      return {
        lines: [
          `Compared with ${p.basis}, nothing has drifted more than 5 percentage points: no rebalance is needed.`,
        ],
        sources: plan.sources,
      };
    }
    return {
      lines: [
        `Compared with ${p.basis}, a rebalance would take ${p.trades.length} trade${p.trades.length === 1 ? '' : 's'} (turnover ${plainPct(p.turnover_percent)} of ${money(p.total_value)}):`,
        ...p.trades.slice(0, 8).map((t) => `- ${t.side} ${t.quantity} ${t.symbol} (${money(t.value)})`),
        'This was a dry run: nothing was traded.',
      ],
      sources: plan.sources,
    };
  }

  private async preferences(userId: number): Promise<Draft> {
    const found = await this.tools.preferencesOf(userId);
    const p = found.data;
    if (!p) {
      return {
        lines: [
          'You have not set preferences yet, so I use the beginner defaults: simple words, key points, moderate risk tolerance. Set them in the onboarding wizard.',
        ],
        sources: found.sources,
      };
    }
    return {
      lines: [
        `Experience: ${p.experience_level}; risk tolerance: ${p.risk_tolerance}; style: ${p.investment_style}.`,
        `Explanations: ${p.explanation_style}, ${p.analysis_depth} depth.`,
        `Privacy: ${p.privacy_level} — ${PRIVACY_MEANING[p.privacy_level]}`,
        `Sectors: ${p.market_sectors.map(sectorName).join(', ') || 'none'}; watchlist: ${p.watchlist.join(', ') || 'empty'}; daily summary: ${p.daily_summary_time}.`,
      ],
      sources: found.sources,
    };
  }
}

const PRIVACY_MEANING: Record<string, string> = {
  full: 'an external AI model, when one is configured, may see your holdings and amounts.',
  limited: 'an external AI model may see weights and percentages, never amounts or quantities.',
  minimal: 'an external AI model sees no portfolio data at all, only market data and news.',
};

function emptyPortfolio(summary: ToolResult<unknown>): Draft {
  return {
    lines: ['Your portfolio is empty: record a transaction and I can tell you how it is doing.'],
    sources: summary.sources,
  };
}
