import { Injectable } from '@nestjs/common';
import { PreferencesService } from '../preferences/preferences.service';
import { WatchlistQuoteResponse } from './dto/overview.response';
import { HoldingsService } from './holdings.service';
import { money } from './portfolio-rounding';
import { Overview } from './portfolio.mapper';
import { PortfolioSummaryService } from './portfolio-summary.service';
import { RiskMetricsService } from './risk-metrics.service';

/** The dashboard's first screen in one round trip; the parts are fetched concurrently. */
@Injectable()
export class PortfolioOverviewService {
  constructor(
    private readonly holdings: HoldingsService,
    private readonly summaries: PortfolioSummaryService,
    private readonly risk: RiskMetricsService,
    private readonly preferences: PreferencesService,
  ) {}

  async overview(userId: number): Promise<Overview> {
    const [snapshot, preferences] = await Promise.all([
      this.holdings.snapshot(userId),
      this.preferences.findForUser(userId),
    ]);
    const [summary, risk, watchlist] = await Promise.all([
      this.summaries.summarise(snapshot),
      this.risk.assess(userId, snapshot),
      this.watchlist(preferences?.watchlist ?? []),
    ]);
    return { summary, positions: snapshot.positions, watchlist, risk, asOf: snapshot.asOf };
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
