import { HttpException, Injectable } from '@nestjs/common';
import { NewsItemResponse } from '../news/dto/news.response';
import { NewsService } from '../news/news.service';
import { PreferencesService } from '../preferences/preferences.service';
import { OverviewNewsItemResponse, WatchlistQuoteResponse } from './dto/overview.response';
import { HoldingsService } from './holdings.service';
import { money } from './portfolio-rounding';
import { Overview } from './portfolio.mapper';
import { PortfolioSummaryService } from './portfolio-summary.service';
import { RiskMetricsService } from './risk-metrics.service';

/** Symbols whose news is looked up: the heaviest holdings first, then the watchlist. */
export const OVERVIEW_NEWS_SYMBOLS = 10;
export const OVERVIEW_NEWS_PER_SYMBOL = 3;
export const OVERVIEW_NEWS_LIMIT = 10;

/** The dashboard's first screen in one round trip; the parts are fetched concurrently. */
@Injectable()
export class PortfolioOverviewService {
  constructor(
    private readonly holdings: HoldingsService,
    private readonly summaries: PortfolioSummaryService,
    private readonly risk: RiskMetricsService,
    private readonly preferences: PreferencesService,
    private readonly newsService: NewsService,
  ) {}

  async overview(userId: number): Promise<Overview> {
    const [snapshot, preferences] = await Promise.all([
      this.holdings.snapshot(userId),
      this.preferences.findForUser(userId),
    ]);
    const watched = preferences?.watchlist ?? [];
    const newsSymbols = [...new Set([...snapshot.positions.map((position) => position.symbol), ...watched])];
    const notes: string[] = [];
    const [summary, risk, watchlist, news] = await Promise.all([
      this.summaries.summarise(snapshot),
      this.risk.assess(userId, snapshot),
      this.watchlist(watched),
      this.news(newsSymbols.slice(0, OVERVIEW_NEWS_SYMBOLS)).catch((error: unknown) => {
        // The rest of the dashboard is still worth showing when only the news provider fails.
        notes.push(
          `News is unavailable: ${error instanceof HttpException ? error.message : 'the news provider failed'}`,
        );
        return [];
      }),
    ]);
    return { summary, positions: snapshot.positions, watchlist, news, risk, notes, asOf: snapshot.asOf };
  }

  /** The latest few articles per symbol, merged newest first; an article found for two symbols counts once. */
  private async news(symbols: string[]): Promise<OverviewNewsItemResponse[]> {
    const perSymbol = await Promise.all(
      symbols.map(async (symbol) =>
        (await this.newsService.forStock(symbol, OVERVIEW_NEWS_PER_SYMBOL)).map(
          (item): OverviewNewsItemResponse => ({ symbol, ...NewsItemResponse.from(item) }),
        ),
      ),
    );
    const byUrl = new Map<string, OverviewNewsItemResponse>();
    for (const item of perSymbol.flat()) if (!byUrl.has(item.url)) byUrl.set(item.url, item);
    return [...byUrl.values()]
      .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt))
      .slice(0, OVERVIEW_NEWS_LIMIT);
  }

  /**
   * One batched quote call, rounded like the market endpoints (2 decimals); a symbol the provider
   * does not know keeps its place with null figures.
   */
  private async watchlist(symbols: string[]): Promise<WatchlistQuoteResponse[]> {
    if (symbols.length === 0) return [];
    const quotes = await this.holdings.rawQuotes(symbols);
    return symbols.map((symbol) => {
      const quote = quotes.get(symbol) ?? null;
      return {
        symbol,
        name: quote?.name ?? null,
        price: quote && money(quote.price),
        change: quote && money(quote.change),
        changePercent: quote && money(quote.changePercent),
      };
    });
  }
}
