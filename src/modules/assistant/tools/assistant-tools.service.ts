import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/time/clock';
import { MarketService, StockQuote } from '../../market';
import { ReplayService } from '../../replay';
import { NewsService } from '../../news';
import { PreferencesService } from '../../preferences';
import {
  byUnrealizedPercent,
  DEFAULT_BENCHMARK,
  DEFAULT_LOOKBACK_DAYS,
  Performer,
  PortfolioQueries,
  PortfolioTotals,
  RebalanceService,
  roundedMoney,
  roundedPercent,
  roundedQuantity,
  ValuedPosition,
} from '../../portfolio';
import { newYorkTime } from '../../../common/time/new-york-time';
import { AnswerSource } from './answer-source';
import { PreferencesFacts, preferencesFacts } from './preferences-facts';
import {
  CashFacts,
  HoldingDetailFacts,
  IncomeFacts,
  RealizedFacts,
  TransactionFacts,
  HoldingFact,
  MarketFacts,
  NewsFacts,
  PortfolioFacts,
  QuoteFacts,
  RebalanceFacts,
  RiskFacts,
} from './tool-results';

/** Drift of less than this many percentage points is left alone by the rebalance check. */
export const REBALANCE_CHECK_TOLERANCE = 5;
/** Named through MarketService, the market module's public face. */

const NEWS_PER_SYMBOL = 5;

/** A tool's answer: the data an engine writes from, and the source the answer cites. */
export interface ToolResult<T> {
  data: T;
  sources: AnswerSource[];
}

const round = (value: number) => Math.round(value * 100) / 100 || 0;
const percent = (fraction: number | null | undefined) =>
  fraction === null || fraction === undefined ? null : round(fraction * 100);

/**
 * The read-only tools both engines answer from. Each one calls an exported service of another
 * module with the caller's id, so a tool can only ever see the caller's own data; none records,
 * changes or deletes anything (the rebalance tool is a dry run).
 */
@Injectable()
export class AssistantTools {
  constructor(
    private readonly portfolio: PortfolioQueries,
    private readonly rebalancer: RebalanceService,
    private readonly market: MarketService,
    private readonly news: NewsService,
    private readonly preferences: PreferencesService,
    private readonly clock: Clock,
    private readonly replay: ReplayService,
  ) {}

  /**
   * The caller's position in one symbol from the positions and the open lots (FIFO, or the named
   * lots under `specific`), with what its sells realized so far; `held: false` when none is open.
   */
  async holdingDetail(userId: number, symbol: string): Promise<ToolResult<HoldingDetailFacts>> {
    const snapshot = await this.portfolio.holdings(userId);
    const open = this.portfolio.openLotsOf(snapshot, symbol);
    const position = snapshot.positions.find((candidate) => candidate.symbol === symbol);
    const sells = snapshot.ledger.filter((entry) => entry.symbol === symbol && entry.side === 'sell');
    const realized = sells.reduce(
      (sum, entry) => sum + (snapshot.replay.realizedPnlBySell.get(entry.id) ?? 0),
      0,
    );
    const lots = open.lots.map((lot) => ({
      acquired_on: lot.acquiredOn,
      quantity: lot.quantity,
      cost_per_share: round(lot.costPerShare),
      unrealized_pnl: round(lot.unrealizedPnl),
    }));
    const data: HoldingDetailFacts = {
      symbol,
      held: position !== undefined,
      quantity: position?.quantity ?? 0,
      cost_basis: round(position?.costBasis ?? 0),
      cost_per_share: position && position.quantity > 0 ? round(position.costBasis / position.quantity) : 0,
      price: round(position?.currentPrice ?? 0),
      market_value: round(position?.marketValue ?? 0),
      unrealized_pnl: round(position?.unrealizedPnl ?? 0),
      unrealized_pnl_percent: round(position?.unrealizedPnlPercent ?? 0),
      weight_percent: round(position?.weight ?? 0),
      day_change: round(position?.dayChange ?? 0),
      day_change_percent: round(position?.dayChangePercent ?? 0),
      realized_pnl: round(realized),
      sells: sells.length,
      lots,
      as_of: snapshot.asOf.toISOString(),
    };
    return {
      data,
      sources: [
        {
          type: 'holding',
          symbol,
          quantity: data.quantity,
          market_value: data.market_value,
          unrealized_pnl: data.unrealized_pnl,
          as_of: data.as_of,
        },
        { type: 'tax_lots', symbol, count: lots.length, as_of: data.as_of },
      ],
    };
  }

  /** The cash account: every entry's cash flow summed, as `include_cash=true` shows it. */
  async cash(userId: number): Promise<ToolResult<CashFacts>> {
    const snapshot = await this.portfolio.holdings(userId);
    let deposits = 0;
    let withdrawals = 0;
    for (const entry of snapshot.ledger) {
      if (entry.side === 'deposit') deposits += entry.amount ?? 0;
      if (entry.side === 'withdrawal') withdrawals += entry.amount ?? 0;
    }
    const data: CashFacts = {
      cash_balance: round(snapshot.replay.cashBalance),
      deposits: round(deposits),
      withdrawals: round(withdrawals),
      as_of: snapshot.asOf.toISOString(),
    };
    return { data, sources: [{ type: 'cash', cash_balance: data.cash_balance, as_of: data.as_of }] };
  }

  /** Dividends and interest over a period, as GET /portfolio/income answers it. */
  async income(userId: number, period: 'YTD' | '1M' | '3M' | '1Y' | 'ALL'): Promise<ToolResult<IncomeFacts>> {
    const report = await this.portfolio.income(userId, period);
    const data: IncomeFacts = {
      period,
      dividends_gross: round(report.totals.dividendsGross),
      withholding_tax: round(report.totals.withholdingTax),
      dividends_net: round(report.totals.dividendsNet),
      interest: round(report.totals.interest),
      by_symbol: report.bySymbol.map((entry) => ({
        symbol: entry.symbol,
        gross: round(entry.gross),
        net: round(entry.net),
      })),
      as_of: report.asOf.toISOString(),
    };
    return {
      data,
      sources: [
        {
          type: 'income',
          period,
          dividends_gross: data.dividends_gross,
          interest: data.interest,
          as_of: data.as_of,
        },
      ],
    };
  }

  /** Realized gains of one New York calendar year by closed lot, as GET /portfolio/realized answers it. */
  async realized(userId: number, year?: number): Promise<ToolResult<RealizedFacts>> {
    const report = await this.portfolio.realized(userId, year);
    const bySymbol = new Map<string, number>();
    for (const portion of report.portions) {
      bySymbol.set(portion.symbol, (bySymbol.get(portion.symbol) ?? 0) + portion.gain);
    }
    const data: RealizedFacts = {
      year: report.year,
      method: report.method,
      proceeds: round(report.totals.proceeds),
      cost: round(report.totals.cost),
      gain: round(report.totals.gain),
      short_term_gain: round(report.totals.shortTermGain),
      long_term_gain: round(report.totals.longTermGain),
      by_symbol: [...bySymbol].map(([symbol, gain]) => ({ symbol, gain: round(gain) })),
      as_of: report.asOf.toISOString(),
    };
    return { data, sources: [{ type: 'realized', year: data.year, gain: data.gain, as_of: data.as_of }] };
  }

  /**
   * The ledger's entries on New York dates from `from` to `to` (inclusive, YYYY-MM-DD), newest first,
   * of one kind when given: what GET /portfolio/transactions lists for those dates.
   */
  async transactions(
    userId: number,
    from: string,
    to: string,
    kind: string | null = null,
    limit = 20,
  ): Promise<ToolResult<TransactionFacts>> {
    const snapshot = await this.portfolio.holdings(userId);
    const items = snapshot.ledger
      .map((entry) => ({ entry, date: newYorkTime(entry.executedAt).date }))
      .filter(({ entry, date }) => date >= from && date <= to && (kind === null || entry.side === kind))
      .sort((a, b) => b.entry.executedAt.getTime() - a.entry.executedAt.getTime() || b.entry.id - a.entry.id)
      .slice(0, limit)
      .map(({ entry, date }) => ({
        date,
        kind: entry.side,
        symbol: entry.symbol,
        quantity: entry.quantity,
        price: round(entry.price),
        amount: round(entry.amount ?? entry.quantity * entry.price),
      }));
    const data: TransactionFacts = { from, to, kind, items, as_of: snapshot.asOf.toISOString() };
    return { data, sources: [{ type: 'transactions', from, to, count: items.length, as_of: data.as_of }] };
  }

  /** Today's date in New York, the calendar the ledger's reports use. */
  today(): string {
    return newYorkTime(this.clock.now()).date;
  }

  /**
   * The holdings' totals with their time-weighted returns (percent) over 1M, 3M, YTD, 1Y and ALL:
   * GET /portfolio/summary's figures, rounded to cents and 0.01 %.
   */
  async portfolioSummary(userId: number): Promise<ToolResult<PortfolioFacts>> {
    const summary = await this.portfolio.summary(userId);
    const performance = Object.fromEntries(
      Object.entries(summary.performance).map(([period, value]) => [period, percent(value)]),
    );
    const data = totalsFacts(summary, summary.asOf, performance);
    return { data, sources: [summarySource(data)] };
  }

  async positions(userId: number): Promise<ToolResult<HoldingFact[]>> {
    const holdings = await this.holdings(userId);
    return {
      data: holdings.data.positions,
      sources: holdings.sources.filter((source) => source.type === 'positions'),
    };
  }

  /**
   * The positions (heaviest first, as `positions` lists them) and the same ranked as the summary
   * ranks its best and worst performers, on the unrounded figures: best first.
   */
  async performers(userId: number): Promise<ToolResult<{ positions: HoldingFact[]; ranked: HoldingFact[] }>> {
    const snapshot = await this.portfolio.holdings(userId);
    const facts = new Map(snapshot.positions.map((position) => [position, positionFacts(position)]));
    const data = {
      positions: [...facts.values()],
      ranked: [...snapshot.positions].sort(byUnrealizedPercent).map((position) => facts.get(position)!),
    };
    return {
      data,
      sources: [{ type: 'positions', count: data.positions.length, as_of: snapshot.asOf.toISOString() }],
    };
  }

  /**
   * Totals and positions from one snapshot of the holdings, without the time-weighted returns
   * (which need every daily close since the first trade): what most questions need, at the cost of
   * one ledger read and one batch of quotes. The totals are the summary's.
   */
  async holdings(userId: number): Promise<ToolResult<{ totals: PortfolioFacts; positions: HoldingFact[] }>> {
    const snapshot = await this.portfolio.holdings(userId);
    const data = {
      totals: totalsFacts(this.portfolio.totalsOf(snapshot), snapshot.asOf, {}),
      positions: snapshot.positions.map(positionFacts),
    };
    return {
      data,
      sources: [
        summarySource(data.totals),
        { type: 'positions', count: data.positions.length, as_of: data.totals.as_of },
      ],
    };
  }

  async riskMetrics(userId: number): Promise<ToolResult<RiskFacts>> {
    const metrics = await this.portfolio.riskMetrics(userId, DEFAULT_LOOKBACK_DAYS, DEFAULT_BENCHMARK);
    const tail95 = metrics.tailRisk?.find((tail) => tail.confidence === 0.95) ?? null;
    const largest = metrics.concentration?.largestWeight ?? null;
    const cluster = metrics.clusterConcentration;
    const data: RiskFacts = {
      risk_level: metrics.riskLevel,
      risk_tolerance: metrics.riskTolerance,
      matches_tolerance: metrics.matchesPreferences,
      volatility_percent: percent(metrics.volatility),
      beta: metrics.beta === null ? null : round(metrics.beta),
      sharpe_ratio: metrics.sharpeRatio === null ? null : round(metrics.sharpeRatio),
      max_drawdown_percent: percent(metrics.drawdown?.maxDrawdown),
      var_95_percent: percent(tail95?.valueAtRisk),
      var_95_amount: tail95 ? round(tail95.valueAtRiskAmount) : null,
      largest_holding: largest && { symbol: largest.symbol, weight_percent: round(largest.weight * 100) },
      effective_holdings: metrics.concentration ? round(metrics.concentration.effectiveHoldings) : null,
      largest_cluster:
        cluster && cluster.largestClusterMembers.length >= 2
          ? {
              symbols: cluster.largestClusterMembers,
              weight_percent: round(cluster.largestClusterWeight * 100),
              effective_bets: round(cluster.effectiveBets),
            }
          : null,
      notes: metrics.notes,
      as_of: metrics.asOf.toISOString(),
    };
    return {
      data,
      sources: [
        {
          type: 'risk_metrics',
          risk_level: data.risk_level,
          volatility: data.volatility_percent,
          beta: data.beta,
          as_of: data.as_of,
        },
      ],
    };
  }

  /** Null data for a symbol the market does not know: the engine then says so instead of guessing. */
  async quote(symbol: string): Promise<ToolResult<QuoteFacts | null>> {
    const quotes = await this.quotes([symbol]);
    return { data: quotes.data[0] ?? null, sources: quotes.sources };
  }

  /** Quotes of the known symbols among `symbols`, in the order asked. */
  async quotes(symbols: string[]): Promise<ToolResult<QuoteFacts[]>> {
    const found = await this.market.getQuotes(symbols);
    const data = [...found.values()].filter((quote): quote is StockQuote => quote !== null).map(toQuoteFacts);
    return { data, sources: data.map(quoteSource) };
  }

  async marketSummary(): Promise<ToolResult<MarketFacts>> {
    const summary = await this.market.getSummary();
    const data: MarketFacts = {
      indices: summary.indices.map((index) => ({
        symbol: index.symbol,
        name: index.name,
        value: round(index.value),
        change_percent: round(index.changePercent),
      })),
      gainers: summary.topGainers.map(toQuoteFacts),
      losers: summary.topLosers.map(toQuoteFacts),
      as_of: this.clock.now().toISOString(),
    };
    return { data, sources: [{ type: 'market_summary', as_of: data.as_of }] };
  }

  async newsFor(symbol: string, limit = NEWS_PER_SYMBOL): Promise<ToolResult<NewsFacts>> {
    const items = await this.news.forStock(symbol, limit);
    const data: NewsFacts = {
      symbol,
      items: items.map((item) => ({
        title: item.title,
        url: item.url,
        source: item.source,
        published_at: item.publishedAt,
        sentiment: item.sentiment,
        score: item.sentimentScore,
      })),
    };
    return {
      data,
      sources: data.items.map((item) => ({
        type: 'news' as const,
        id: item.url,
        title: item.title,
        url: item.url,
        sentiment: item.sentiment,
      })),
    };
  }

  async searchSymbols(query: string): Promise<ToolResult<{ symbol: string; name: string }[]>> {
    const matches = await this.market.search(query, 5);
    return {
      data: matches,
      sources: [{ type: 'symbol_search', query, matches: matches.map((match) => match.symbol) }],
    };
  }

  /** The record as GET /preferences/ shows it: the model reads the same names the user sees. */
  async preferencesOf(userId: number): Promise<ToolResult<PreferencesFacts | null>> {
    const preferences = await this.preferences.findForUser(userId);
    return {
      data: preferences && preferencesFacts(preferences),
      sources: [{ type: 'preferences', has_preferences: preferences !== null }],
    };
  }

  /**
   * A dry run toward equal weights over the user's preferred sectors that they hold when there are
   * any, else over the current holdings: the plan the assistant compares the portfolio with.
   */
  async rebalanceDryRun(userId: number): Promise<ToolResult<RebalanceFacts | null>> {
    const [snapshot, preferences] = await Promise.all([
      this.portfolio.holdings(userId),
      this.preferences.findForUser(userId),
    ]);
    if (snapshot.positions.length === 0) return { data: null, sources: [] };
    // A preferred sector without holdings has nothing to carry its weight (the rebalance refuses it).
    const held = new Set(snapshot.positions.map((position) => position.sector));
    const sectors = (preferences?.market_sectors ?? []).filter((sector) => held.has(sector));
    const bySector = sectors.length > 0;
    const share = round(100 / (bySector ? sectors.length : snapshot.positions.length));
    const shares = (count: number) =>
      Array.from({ length: count }, (_, index) => (index === 0 ? round(100 - share * (count - 1)) : share));
    const weights = shares(bySector ? sectors.length : snapshot.positions.length);
    const plan = await this.rebalancer.rebalance(userId, {
      ...(bySector
        ? { sector_targets: sectors.map((sector, index) => ({ sector, weight: weights[index] })) }
        : {
            targets: snapshot.positions.map((position, index) => ({
              symbol: position.symbol,
              weight: weights[index],
            })),
          }),
      tolerance: REBALANCE_CHECK_TOLERANCE,
      dry_run: true,
    });
    // The facts round the plan's figures as the rebalance route answers them, then to 0.01.
    const after = new Map(plan.after.map((entry) => [entry.symbol, roundedPercent(entry.weight)]));
    const data: RebalanceFacts = {
      basis: bySector
        ? `equal weights over your sectors (${sectors.join(', ')})`
        : 'equal weights over your holdings',
      trades: plan.trades.map((trade) => ({
        symbol: trade.symbol,
        side: trade.side,
        quantity: roundedQuantity(trade.quantity),
        value: round(roundedMoney(trade.value)),
      })),
      drift: plan.before
        .map((entry) => ({
          symbol: entry.symbol,
          weight_percent: round(roundedPercent(entry.weight)),
          target_percent: round(after.get(entry.symbol) ?? 0),
        }))
        .filter(
          (entry) => Math.abs(entry.weight_percent - entry.target_percent) >= REBALANCE_CHECK_TOLERANCE,
        ),
      turnover_percent: round(roundedPercent(plan.turnover)),
      total_value: round(roundedMoney(plan.totalValue)),
      as_of: snapshot.asOf.toISOString(),
    };
    return {
      data,
      sources: [
        {
          type: 'rebalance_dry_run',
          trades: data.trades.length,
          turnover: data.turnover_percent,
          as_of: data.as_of,
        },
      ],
    };
  }

  symbolDirectory() {
    return this.replay.stocks();
  }
}

/** A position as the tools state it: money in cents, percentages to 0.01. */
function positionFacts(position: ValuedPosition): HoldingFact {
  return {
    symbol: position.symbol,
    sector: position.sector,
    quantity: position.quantity,
    price: round(position.currentPrice),
    market_value: round(position.marketValue),
    weight_percent: round(position.weight),
    unrealized_pnl: round(position.unrealizedPnl),
    unrealized_pnl_percent: round(position.unrealizedPnlPercent),
    day_change: round(position.dayChange),
    day_change_percent: round(position.dayChangePercent),
  };
}

/** The summary's totals as the tools state them (best and worst are the summary's own). */
function totalsFacts(
  totals: PortfolioTotals,
  asOf: Date,
  performance: PortfolioFacts['performance'],
): PortfolioFacts {
  const performer = (entry: Performer | null) =>
    entry && { symbol: entry.symbol, unrealized_pnl_percent: round(entry.unrealizedPnlPercent) };
  return {
    total_value: round(totals.totalValue),
    total_cost: round(totals.totalCost),
    unrealized_pnl: round(totals.unrealizedPnl),
    unrealized_pnl_percent: round(totals.unrealizedPnlPercent),
    realized_pnl: round(totals.realizedPnl),
    day_change: round(totals.dayChange),
    day_change_percent: round(totals.dayChangePercent),
    positions_count: totals.positionsCount,
    sectors: totals.sectorAllocation.map((sector) => ({
      sector: sector.sector,
      weight_percent: round(sector.weight),
      market_value: round(sector.marketValue),
    })),
    best: performer(totals.bestPerformer),
    worst: performer(totals.worstPerformer),
    performance,
    as_of: asOf.toISOString(),
  };
}

function summarySource(data: PortfolioFacts): AnswerSource {
  return {
    type: 'portfolio_summary',
    total_value: data.total_value,
    day_change: data.day_change,
    day_change_percent: data.day_change_percent,
    unrealized_pnl_percent: data.unrealized_pnl_percent,
    positions_count: data.positions_count,
    as_of: data.as_of,
  };
}

function toQuoteFacts(quote: StockQuote): QuoteFacts {
  return {
    symbol: quote.symbol,
    name: quote.name,
    price: round(quote.price),
    change: round(quote.change),
    change_percent: round(quote.changePercent),
    as_of: quote.asOf,
  };
}

function quoteSource(quote: QuoteFacts): AnswerSource {
  return {
    type: 'quote',
    symbol: quote.symbol,
    price: quote.price,
    change_percent: quote.change_percent,
    as_of: quote.as_of,
  };
}
