import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { warmUp } from '../../../../common/lifecycle/warm-ups';
import { AnswerSource } from '../../tools/answer-source';
import { AssistantTools, ToolResult } from '../../tools/assistant-tools.service';
import { MarketGraphTools } from '../../tools/market-graph-tools.service';
import { ChatEngine, ChatTurn, DeltaSink, DISCLAIMER, EngineAnswer } from '../chat-engine';
import { OFF_TOPIC_LINE, policyFor, PolicyRule, TRANSACTIONS_ROUTE } from '../../policy';
import { ConversationState, PRONOUN, resolveFollowUp, stateOf, Understanding } from './conversation-state';
import { EntityExtractor, ExtractedEntities } from './entity-extractor';
import { money, PERIOD_NAMES, pct, periodLead, plainPct, sectorName, signedMoney } from './format';
import { explainTerm, findTerm } from './glossary';
import { classifyIntent, HOLDING_WITH_SYMBOL, Intent } from './intent-classifier';
import { calendarRange, focusQuestion, yearIn } from './question-text';
import {
  concentrationAnswer,
  indirectNewsAnswer,
  marketGraphQuestion,
  relatedAnswer,
} from './market-graph-answers';
import { CountedLru } from '../../../../common/metrics/cache-counters';

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
  'your position in a company: shares, cost per share, value, gain or loss, lots',
  'your cash, dividends and interest, realized gains by year and your recent transactions',
  'your watchlist, and what investing terms mean (P/E, beta, ETF, …)',
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
  holding: ['Any news on it?', 'What is my portfolio worth?'],
  cash: ['What dividends did I get this year?', 'What is my portfolio worth?'],
  income: ['What did I realize this year?', 'What is my cash balance?'],
  realized: ['What about last year?', 'What did I buy last month?'],
  transactions: ['What did I realize this year?', 'What is my cash balance?'],
  watchlist: ['Any news on them?', 'What moved in the market today?'],
  glossary: ['Tell me more', 'How risky is my portfolio?'],
  refusal: ['What is my portfolio worth?', 'What can you do?'],
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
export class OfflineEngine extends ChatEngine implements OnApplicationBootstrap {
  private readonly logger = new Logger(OfflineEngine.name);
  private extractor: Promise<EntityExtractor> | null = null;
  private readonly names = new Map<string, string>();
  private readonly readings = new CountedLru<string, MessageReading>('assistant-readings', {
    max: READINGS_KEPT,
  });

  constructor(
    private readonly tools: AssistantTools,
    private readonly graphTools: MarketGraphTools,
  ) {
    super();
  }

  /** Builds the name index (and loads the English word list) before the first question waits for it. */
  onApplicationBootstrap(): void {
    warmUp(this.entityExtractor().then((extractor) => extractor.normalise('warm up'))).catch(() => undefined);
  }

  /** A message understood in its conversation (the stored earlier messages, oldest first). */
  async understand(message: string, history: ChatTurn['history'] = []): Promise<Understanding> {
    const extractor = await this.entityExtractor();
    const understand = (text: string, state: ConversationState) => this.understandIn(extractor, text, state);
    const state = stateOf(history, understand, (text) => extractor.extract(text).symbols);
    const understood = understand(message, state);
    return understood;
  }

  /**
   * What a message says on its own, whatever the conversation: read once per text and date, since a
   * turn re-reads every earlier question of its conversation to derive the state.
   */
  private readingOf(extractor: EntityExtractor, message: string): MessageReading {
    const today = this.tools.today();
    const key = `${today}\n${message}`;
    const cached = this.readings.get(key);
    if (cached) return cached;
    const text = focusQuestion(extractor.normalise(message));
    const entities = extractor.extract(text);
    const term = findTerm(text);
    const refusal = policyFor(text);
    const reading: MessageReading = {
      text,
      entities,
      term,
      refusal,
      intent: classifyIntent(text, entities, { glossaryTerm: term, refused: refusal !== null }),
      year: yearIn(text, today),
      didYouMean: extractor.didYouMean(text),
      refersBack:
        entities.symbols.length === 0 &&
        entities.unknownNames.length === 0 &&
        (PRONOUN.test(text) || (text.trim().split(/\s+/).length <= 6 && HOLDING_WITH_SYMBOL.test(text))),
    };
    this.readings.set(key, reading);
    return reading;
  }

  private understandIn(extractor: EntityExtractor, message: string, state: ConversationState): Understanding {
    const reading = this.readingOf(extractor, message);
    const { text, term, refusal } = reading;
    let entities = { ...reading.entities, symbols: [...reading.entities.symbols] };
    let intent = reading.intent;
    if (reading.refersBack && state.symbols.length > 0) {
      entities = {
        ...entities,
        symbols: /\b(?:them|they|those|these|both)\b/i.test(text) ? state.symbols : state.symbols.slice(0, 1),
      };
      intent = classifyIntent(text, entities, { glossaryTerm: term, refused: refusal !== null });
    }
    const own: Understanding = {
      intent,
      entities,
      year: reading.year,
      term,
      detail: false,
      didYouMean: reading.didYouMean,
      refusal,
    };
    if (intent === 'refusal') return own;
    const weak =
      intent === 'unknown' ||
      (intent === 'stock_quote' &&
        !/\b(?:price|quote|trading|cost|worth|doing|move|moved|change)\b/i.test(text)) ||
      (intent === 'portfolio_performance' &&
        !/\b(?:perform|return|gain|made|earn|profit|grow|grew|lost)/i.test(text)) ||
      (intent === 'glossary' && state.intent === 'glossary');
    return resolveFollowUp(text, own, state, weak);
  }

  /** Follow-up questions for a message, whichever engine answers it. */
  async suggestionsFor(message: string, history: ChatTurn['history'] = []): Promise<string[]> {
    return SUGGESTIONS[(await this.understand(message, history)).intent];
  }

  async answer(turn: ChatTurn, onDelta: DeltaSink = () => undefined): Promise<EngineAnswer> {
    const understood = await this.understand(turn.message, turn.history);
    const { intent } = understood;
    // A failing data source (say, the market provider) is an answer, not a 500 on the chat.
    const draft = await this.write(understood, turn).catch((error: unknown): Draft => {
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
    return { content, sources: dedupe(draft.sources), suggestions: SUGGESTIONS[intent] };
  }

  private entityExtractor(): Promise<EntityExtractor> {
    this.extractor ??= this.tools.symbolDirectory().then((directory) => {
      for (const entry of directory) this.names.set(entry.symbol, entry.name);
      return new EntityExtractor(directory);
    });
    this.extractor.catch(() => (this.extractor = null));
    return this.extractor;
  }

  private async write(understood: Understanding, turn: ChatTurn): Promise<Draft> {
    const draft = await this.draft(understood, turn);
    if (understood.detail) draft.lines.push('', `Why: ${WHY[understood.intent]}`);
    const corrected = understood.didYouMean;
    if (corrected.length > 0 && !draft.lines[0]?.startsWith('Did you mean')) {
      draft.lines.unshift(
        `(I read "${corrected[0].typed}" as ${corrected[0].name}, ${corrected[0].symbol}.)`,
      );
    }
    return draft;
  }

  private draft(understood: Understanding, turn: ChatTurn): Promise<Draft> {
    const { intent, entities } = understood;
    const text = turn.message;
    switch (intent) {
      case 'refusal':
        return Promise.resolve({
          lines: [
            understood.refusal?.reply ?? `I never trade. To record a trade, use ${TRANSACTIONS_ROUTE}.`,
          ],
          sources: [],
        });
      case 'holding':
        return this.holding(turn.userId, entities, text);
      case 'cash':
        return this.cash(turn.userId);
      case 'income':
        return this.income(turn.userId, entities);
      case 'realized':
        return this.realized(turn.userId, understood.year);
      case 'transactions':
        return this.transactions(turn.userId, text);
      case 'watchlist':
        return this.watchlist(turn.userId);
      case 'glossary':
        return this.glossary(turn, understood.term, understood.detail);
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
        return entities.symbols.length === 0 &&
          entities.unknownNames.length === 0 &&
          /\bmy\b.{0,30}\b(?:holdings?|portfolio|stocks|positions?|shares|companies)\b/i.test(text)
          ? this.newsOnHoldings(turn.userId)
          : this.stock(entities, true);
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
          lines: [OFF_TOPIC_LINE, ...CAPABILITIES.map((item) => `- ${item}`)],
          sources: [],
        });
    }
  }

  private async holding(userId: number, entities: ExtractedEntities, text: string): Promise<Draft> {
    const { symbols, missing, sources } = await this.resolve(entities);
    if (symbols.length === 0) {
      if (missing.length > 0) {
        return {
          lines: [
            `I could not find a company or ticker called "${missing[0]}", so I cannot tell you about your position in it.${await this.didYouMean(missing[0])}`,
          ],
          sources,
        };
      }
      const holdings = await this.tools.holdings(userId);
      if (holdings.data.positions.length === 0) return emptyPortfolio(holdings);
      return {
        lines: [
          `Which holding? You hold ${holdings.data.positions.map((p) => `${p.symbol} (${p.quantity} shares)`).join(', ')}, at a total cost of ${money(holdings.data.totals.total_cost)}.`,
        ],
        sources: holdings.sources,
      };
    }
    const lines: string[] = [];
    const all: AnswerSource[] = [...sources];
    for (const symbol of symbols.slice(0, 3)) {
      const detail = await this.tools.holdingDetail(userId, symbol);
      all.push(...detail.sources);
      const d = detail.data;
      const name = `${this.nameOf(symbol)} (${symbol})`;
      if (!d.held) {
        lines.push(`You hold none of ${name}.`);
        if (d.sells > 0)
          lines.push(`You sold it earlier: those sells realized ${signedMoney(d.realized_pnl)}.`);
        continue;
      }
      lines.push(
        `You hold ${d.quantity} share${d.quantity === 1 ? '' : 's'} of ${name}, at ${money(d.cost_per_share)} a share on average: a cost basis of ${money(d.cost_basis)}.`,
        `At ${money(d.price)} they are worth ${money(d.market_value)}: ${d.unrealized_pnl >= 0 ? 'a gain' : 'a loss'} of ${signedMoney(d.unrealized_pnl)} (${pct(d.unrealized_pnl_percent)}), ${plainPct(d.weight_percent)} of your portfolio.`,
      );
      if (d.lots.length > 1) {
        lines.push(
          `In ${d.lots.length} lots: ${d.lots.map((lot) => `${lot.quantity} bought ${lot.acquired_on} at ${money(lot.cost_per_share)}`).join('; ')}.`,
        );
      }
      if (d.sells > 0) lines.push(`Your sells of it realized ${signedMoney(d.realized_pnl)} so far.`);
      if (/\b(?:today|market|price|move|moved|quote|trading)\b/i.test(text)) {
        lines.push(`Today: ${signedMoney(d.day_change)} (${pct(d.day_change_percent)}).`);
      }
    }
    return { lines, sources: all };
  }

  /** The sentiment of the news on the heaviest holdings, as the briefing counts it. */
  private async newsOnHoldings(userId: number): Promise<Draft> {
    const positions = await this.tools.positions(userId);
    if (positions.data.length === 0)
      return { lines: ['You have no open positions yet.'], sources: positions.sources };
    const heaviest = positions.data.slice(0, NEWS_HOLDINGS).map((position) => position.symbol);
    const news = await Promise.all(heaviest.map((symbol) => this.tools.newsFor(symbol)));
    const total = { positive: 0, negative: 0, neutral: 0 } as Record<string, number>;
    const lines = news.map((result, index) => {
      const counts = { positive: 0, negative: 0, neutral: 0 } as Record<string, number>;
      for (const item of result.data.items) {
        counts[item.sentiment] += 1;
        total[item.sentiment] += 1;
      }
      return result.data.items.length === 0
        ? `- ${heaviest[index]}: no recent news`
        : `- ${heaviest[index]}: ${counts.positive} positive, ${counts.negative} negative, ${counts.neutral} neutral; latest "${result.data.items[0].title}"`;
    });
    return {
      lines: [
        `News on your ${heaviest.length} largest holdings: ${total.positive} positive, ${total.negative} negative, ${total.neutral} neutral articles.`,
        ...lines,
      ],
      sources: [...positions.sources, ...news.flatMap((result) => result.sources)],
    };
  }

  private async cash(userId: number): Promise<Draft> {
    const cash = await this.tools.cash(userId);
    const c = cash.data;
    const lines = [
      c.cash_balance >= 0
        ? `Your cash balance is ${money(c.cash_balance)}.`
        : `Your cash balance is ${signedMoney(c.cash_balance)}: your buys used more cash than your ledger records coming in.`,
    ];
    lines.push(
      `It is what your deposits (${money(c.deposits)}) and withdrawals (${money(c.withdrawals)}), trades, fees, dividends and interest leave.`,
    );
    return { lines, sources: cash.sources };
  }

  private async income(userId: number, entities: ExtractedEntities): Promise<Draft> {
    const period = incomePeriod(entities.period);
    const income = await this.tools.income(userId, period);
    const i = income.data;
    const lead = periodLead(period);
    if (i.dividends_gross === 0 && i.interest === 0) {
      return { lines: [`${lead} you received no dividends or interest.`], sources: income.sources };
    }
    const lines = [
      `${lead} you received ${money(i.dividends_gross)} in dividends (${money(i.dividends_net)} after ${money(i.withholding_tax)} withheld) and ${money(i.interest)} in interest.`,
    ];
    if (i.by_symbol.length > 0) {
      lines.push(
        `By holding: ${i.by_symbol
          .slice(0, 6)
          .map((entry) => `${entry.symbol} ${money(entry.gross)}`)
          .join(', ')}.`,
      );
    }
    return { lines, sources: income.sources };
  }

  private async realized(userId: number, year: number | null): Promise<Draft> {
    const realized = await this.tools.realized(userId, year ?? undefined);
    const r = realized.data;
    if (r.by_symbol.length === 0) {
      return {
        lines: [`You sold nothing in ${r.year}, so nothing was realized that year.`],
        sources: realized.sources,
      };
    }
    return {
      lines: [
        `In ${r.year} your sells realized ${signedMoney(r.gain)} on proceeds of ${money(r.proceeds)} (short-term ${signedMoney(r.short_term_gain)}, long-term ${signedMoney(r.long_term_gain)}; lots matched ${r.method === 'specific' ? 'as you named them' : 'first in, first out'}).`,
        `By holding: ${r.by_symbol.map((entry) => `${entry.symbol} ${signedMoney(entry.gain)}`).join(', ')}.`,
      ],
      sources: realized.sources,
    };
  }

  private async transactions(userId: number, text: string): Promise<Draft> {
    const range = calendarRange(text, this.tools.today());
    const kind = /\b(?:buy|bought|purchas\w*|buys)\b/i.test(text)
      ? 'buy'
      : /\b(?:sell|sold|sells)\b/i.test(text)
        ? 'sell'
        : /\bdeposit/i.test(text)
          ? 'deposit'
          : null;
    const found = await this.tools.transactions(userId, range.from, range.to, kind, 10);
    const items = found.data.items;
    const what =
      kind === 'buy' ? 'buys' : kind === 'sell' ? 'sells' : kind === 'deposit' ? 'deposits' : 'transactions';
    if (items.length === 0)
      return { lines: [`You recorded no ${what} ${range.label}.`], sources: found.sources };
    return {
      lines: [
        `Your ${what} ${range.label}, newest first:`,
        ...items.map((item) =>
          item.kind === 'buy' || item.kind === 'sell'
            ? `- ${item.date}: ${item.kind === 'buy' ? 'bought' : 'sold'} ${item.quantity} ${item.symbol} at ${money(item.price)} (${money(item.amount)})`
            : `- ${item.date}: ${item.kind}${item.symbol ? ` ${item.symbol}` : ''} ${money(item.amount)}`,
        ),
      ],
      sources: found.sources,
    };
  }

  private async watchlist(userId: number): Promise<Draft> {
    const preferences = await this.tools.preferencesOf(userId);
    const watched = preferences.data?.watchlist ?? [];
    if (watched.length === 0) {
      return {
        lines: ['Your watchlist is empty: add symbols to it in your preferences.'],
        sources: preferences.sources,
      };
    }
    const quotes = await this.tools.quotes(watched);
    const ranked = [...quotes.data].sort((a, b) => b.change_percent - a.change_percent);
    return {
      lines: [
        `Your watchlist today: ${ranked.map((q) => `${q.symbol} ${money(q.price)} (${pct(q.change_percent)})`).join(', ')}.`,
        ranked.length > 1 ? `Best: ${ranked[0].symbol}; weakest: ${ranked[ranked.length - 1].symbol}.` : '',
      ].filter(Boolean),
      sources: [...preferences.sources, ...quotes.sources],
    };
  }

  private async glossary(turn: ChatTurn, term: string | null, detail: boolean): Promise<Draft> {
    if (!term) return { lines: ['Which term? Ask, for example, "What is beta?"'], sources: [] };
    return explainTerm(term, turn.preferences, detail, (key) => this.figureFor(turn.userId, key));
  }

  /** The user's own figure a glossary term links to, with its source; null when there is none. */
  private async figureFor(
    userId: number,
    key: string,
  ): Promise<{ text: string; sources: AnswerSource[] } | null> {
    const risky = ['beta', 'volatility', 'var', 'drawdown', 'sharpe'];
    if (risky.includes(key)) {
      const risk = await this.tools.riskMetrics(userId);
      const r = risk.data;
      const value: Record<string, string | null> = {
        beta: r.beta === null ? null : `your portfolio's beta is ${r.beta.toFixed(2)}`,
        volatility:
          r.volatility_percent === null
            ? null
            : `your portfolio's annualised volatility is ${plainPct(r.volatility_percent)}`,
        var:
          r.var_95_amount === null || r.var_95_percent === null
            ? null
            : `your 1-day 95 % value at risk is ${money(r.var_95_amount)} (${plainPct(r.var_95_percent)})`,
        drawdown:
          r.max_drawdown_percent === null
            ? null
            : `your portfolio's largest drawdown over the last year is ${plainPct(r.max_drawdown_percent)}`,
        sharpe:
          r.sharpe_ratio === null
            ? null
            : `your portfolio's Sharpe ratio over the last year is ${r.sharpe_ratio.toFixed(2)}`,
      };
      return value[key] ? { text: value[key]!, sources: risk.sources } : null;
    }
    const holdings = await this.tools.holdings(userId);
    const t = holdings.data.totals;
    if (t.positions_count === 0) return null;
    switch (key) {
      case 'unrealized':
        return {
          text: `your unrealized P&L is ${signedMoney(t.unrealized_pnl)} (${pct(t.unrealized_pnl_percent)})`,
          sources: holdings.sources,
        };
      case 'cost_basis':
        return {
          text: `your holdings' total cost basis is ${money(t.total_cost)}`,
          sources: holdings.sources,
        };
      case 'market_value':
        return { text: `your holdings are worth ${money(t.total_value)}`, sources: holdings.sources };
      case 'diversification':
      case 'sector':
        return {
          text: `your largest sector is ${sectorName(t.sectors[0].sector)} at ${plainPct(t.sectors[0].weight_percent)}`,
          sources: holdings.sources,
        };
      case 'weight': {
        const top = holdings.data.positions[0];
        return {
          text: `your largest position, ${top.symbol}, weighs ${plainPct(top.weight_percent)}`,
          sources: holdings.sources,
        };
      }
      case 'realized':
        return {
          text: `your realized P&L so far is ${signedMoney(t.realized_pnl)}`,
          sources: holdings.sources,
        };
      default:
        return null;
    }
  }

  /** " Did you mean Microsoft Corp. (MSFT)?" for a name close to known ones, else "". */
  private async didYouMean(typed: string): Promise<string> {
    const near = (await this.entityExtractor()).nearNames(typed.split(' ')[0]);
    if (near.length === 0) return '';
    return ` Did you mean ${near.map((entry) => `${entry.name} (${entry.symbol})`).join(' or ')}?`;
  }

  private nameOf(symbol: string): string {
    return this.names.get(symbol) ?? symbol;
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
          : `${periodLead(asked)} your portfolio returned ${pct(value)} (time-weighted, so deposits and sales do not count as gains).`,
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
    // Ranked on the unrounded figures, so that the best and worst are the summary's.
    const performers = await this.tools.performers(userId);
    const positions = { data: performers.data.positions, sources: performers.sources };
    if (positions.data.length === 0)
      return { lines: ['You have no open positions yet.'], sources: positions.sources };
    const { ranked } = performers.data;
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
            `I could not find a company or ticker called "${missing[0]}" in the market data, so I have no quote for it.${(await this.didYouMean(missing[0])) || ' Try its ticker symbol, e.g. AAPL.'}`,
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
        ...p.trades.slice(0, 8).map((t) => `- ${t.side} ${t.quantity} ${t.symbol}`),
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

/** Holdings whose news a question about "my holdings" covers, heaviest first. */
const NEWS_HOLDINGS = 5;

/** Messages whose reading is kept (the oldest is dropped first). */
const READINGS_KEPT = 5000;

interface MessageReading {
  text: string;
  entities: ExtractedEntities;
  term: string | null;
  refusal: PolicyRule | null;
  intent: Intent;
  year: number | null;
  didYouMean: Understanding['didYouMean'];
  /** No name of its own, but a pronoun or a position question: it may mean the last symbols. */
  refersBack: boolean;
}

/** Why an answer's figures are what they are: added when the user asks "why?" or "tell me more". */
const WHY: Record<Intent, string> = {
  portfolio_value:
    "the value is each position's shares times its latest price, summed; unrealized P&L is that value minus what you paid (the cost basis), and today's change is each position's shares times its move since the previous close.",
  portfolio_performance:
    "returns are time-weighted: each day's gain is measured on the money invested that day, so deposits, withdrawals and sales do not count as gains or losses.",
  best_worst:
    "holdings are ranked by unrealized P&L in percent of what you paid for them; today's movers by their change since the previous close.",
  risk: "volatility is how much your portfolio's daily value swings (annualised), beta how strongly it moves with the S&P 500, value at risk the loss a bad day (1 in 20) could bring, drawdown the largest fall from a peak — all over the last year of daily closes.",
  concentration:
    "weights are each position's value over the whole portfolio; a single position over 25 % or a sector over 40 % means one piece of bad news hits much of your money.",
  market_movers:
    'the movers are the stocks of the market data with the largest change since the previous close.',
  stock_quote: "the change is the latest price against the previous session's close.",
  stock_news: 'sentiment is scored per article from its headline and text: positive, negative or neutral.',
  compare_stocks: 'both are measured by their change since the previous close.',
  rebalance:
    'the dry run compares your weights with equal weights and trades only what drifted more than 5 percentage points; nothing is traded.',
  preferences: 'your preferences decide how I word answers and what an external AI model may see.',
  help: 'I answer from your own ledger and the market data only.',
  holding:
    'your cost basis is what you paid for the shares you still hold (price plus fees); the gain or loss is their value at the latest price minus that cost, and realized P&L is what sells locked in.',
  cash: 'cash is every deposit and sale minus every withdrawal, buy and fee, plus dividends and interest.',
  income: 'dividends are counted gross (before withholding tax) on the date they were paid.',
  realized:
    'a sell realizes the difference between its proceeds and the cost of the lots it closes; lots held one year or less are short-term.',
  transactions: 'these are the entries of your ledger, as GET /api/v1/portfolio/transactions lists them.',
  market_graph:
    'companies are related when they share a sub-industry, when their daily returns moved together (a correlation of at least 0.6 over the last 252 sessions) or when the same news mentions them; holdings that move together form one cluster, so they count as one bet.',
  watchlist: "the change is each price against the previous session's close.",
  glossary: 'I explain terms from my own glossary, linked to your figures where you have one.',
  refusal:
    'I only read and explain your data and the market: I never trade, and I do not give personal recommendations, predictions, tax or legal advice.',
  unknown: 'I answer from your own ledger and the market data only.',
};

function incomePeriod(period: string | null): 'YTD' | '1M' | '3M' | '1Y' | 'ALL' {
  return period === '1M' || period === '3M' || period === '1Y' || period === 'ALL' ? period : 'YTD';
}

/** One source per distinct result: a tool asked twice in a turn is cited once. */
function dedupe(sources: AnswerSource[]): AnswerSource[] {
  const seen = new Set<string>();
  return sources.filter((source) => {
    const key = JSON.stringify(source);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
