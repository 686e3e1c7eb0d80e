import { Inject, Injectable } from '@nestjs/common';
import { ProviderUnavailableError } from '../../common/errors/domain-errors';
import { NewsItem, NewsService } from '../news';
import { PreferencesService } from '../preferences';
import { ValuedPosition, weighWithCash } from './analytics/position-valuation';
import { HoldingsService } from './holdings.service';
import { PortfolioSummary, PortfolioSummaryService } from './portfolio-summary.service';
import { PortfolioRiskMetrics, RiskMetricsService } from './risk-metrics.service';

/** Symbols whose news is looked up: the heaviest holdings first, then the watchlist. */
export const OVERVIEW_NEWS_SYMBOLS = 10;
export const OVERVIEW_NEWS_PER_SYMBOL = 3;
export const OVERVIEW_NEWS_LIMIT = 10;
export const OVERVIEW_TOP_POSITIONS = 10;

/** A watched symbol with its quote; the figures are null when the provider does not know it. */
export interface WatchedQuote {
  symbol: string;
  name: string | null;
  price: number | null;
  change: number | null;
  changePercent: number | null;
}

/** An article found for a held or watched symbol. */
export interface SymbolNews {
  symbol: string;
  item: NewsItem;
}

export interface Overview {
  summary: PortfolioSummary;
  /** With include_cash, reweighed with the cash balance (see weighWithCash). */
  positions: readonly ValuedPosition[];
  /** With include_cash only: the cash's weight beside the positions'. */
  cashWeight?: number;
  watchlist: WatchedQuote[];
  news: SymbolNews[];
  risk: PortfolioRiskMetrics;
  notes: string[];
  asOf: Date;
}

/** What the overview reads of each service it draws on. */
export interface OverviewSources {
  holdings: Pick<HoldingsService, 'snapshot' | 'rawQuotes'>;
  summaries: Pick<PortfolioSummaryService, 'summarise'>;
  risk: Pick<RiskMetricsService, 'assess'>;
  /** Only the watchlist of the user's preferences is read. */
  preferences: { findForUser(userId: number): Promise<{ watchlist: string[] } | null> };
  news: Pick<NewsService, 'forStock'>;
}

/** The dashboard's first screen in one round trip; the parts are fetched concurrently. */
@Injectable()
export class PortfolioOverviewService {
  constructor(
    @Inject(HoldingsService) private readonly holdings: OverviewSources['holdings'],
    @Inject(PortfolioSummaryService) private readonly summaries: OverviewSources['summaries'],
    @Inject(RiskMetricsService) private readonly risk: OverviewSources['risk'],
    @Inject(PreferencesService) private readonly preferences: OverviewSources['preferences'],
    @Inject(NewsService) private readonly newsService: OverviewSources['news'],
  ) {}

  /** With `includeCash`, the summary has the cash balance and the weights count it. */
  async overview(userId: number, includeCash = false, accountId?: number): Promise<Overview> {
    const [snapshot, preferences] = await Promise.all([
      this.holdings.snapshot(userId, accountId),
      this.preferences.findForUser(userId),
    ]);
    const watched = preferences?.watchlist ?? [];
    const newsSymbols = [...new Set([...snapshot.positions.map((position) => position.symbol), ...watched])];
    const notes: string[] = [];
    const [summary, risk, watchlist, news] = await Promise.all([
      this.summaries.summarise(snapshot, includeCash),
      this.risk.assess(userId, snapshot),
      this.watchlist(watched),
      this.news(newsSymbols.slice(0, OVERVIEW_NEWS_SYMBOLS)).catch((error: unknown) => {
        // The rest of the dashboard is still worth showing when only the news provider fails.
        notes.push(
          `News is unavailable: ${error instanceof ProviderUnavailableError ? error.detail : 'the news provider failed'}`,
        );
        return [];
      }),
    ]);
    const weighed = includeCash ? weighWithCash(snapshot.positions, snapshot.replay.cashBalance) : null;
    return {
      summary,
      positions: weighed?.positions ?? snapshot.positions,
      ...(weighed && { cashWeight: weighed.cashWeight }),
      watchlist,
      news,
      risk,
      notes,
      asOf: snapshot.asOf,
    };
  }

  /** The latest few articles per symbol, merged newest first; an article found for two symbols counts once. */
  private async news(symbols: string[]): Promise<SymbolNews[]> {
    const perSymbol = await Promise.all(
      symbols.map(async (symbol) =>
        (await this.newsService.forStock(symbol, OVERVIEW_NEWS_PER_SYMBOL)).map((item) => ({ symbol, item })),
      ),
    );
    const byUrl = new Map<string, SymbolNews>();
    for (const found of perSymbol.flat()) if (!byUrl.has(found.item.url)) byUrl.set(found.item.url, found);
    return [...byUrl.values()]
      .sort((a, b) => b.item.publishedAt.localeCompare(a.item.publishedAt))
      .slice(0, OVERVIEW_NEWS_LIMIT);
  }

  /** One batched quote call; a symbol the provider does not know keeps its place with null figures. */
  private async watchlist(symbols: string[]): Promise<WatchedQuote[]> {
    if (symbols.length === 0) return [];
    const quotes = await this.holdings.rawQuotes(symbols);
    return symbols.map((symbol) => {
      const quote = quotes.get(symbol) ?? null;
      return {
        symbol,
        name: quote?.name ?? null,
        price: quote?.price ?? null,
        change: quote?.change ?? null,
        changePercent: quote?.changePercent ?? null,
      };
    });
  }
}
