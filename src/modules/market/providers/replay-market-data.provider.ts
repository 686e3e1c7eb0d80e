import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/time/clock';
import {
  CompanyProfile,
  DailyBar,
  MarketDataProvider,
  MarketMovers,
  ProviderQuote,
  rankSymbolMatches,
  SplitHistory,
  SymbolMatch,
  UnknownSymbolError,
} from '../../../integrations/vendors';
import { ReplayMarket, ReplayService } from '../../replay';

/** The offline default: real 2013–2018 S&P 500 history replayed on today's calendar. */
@Injectable()
export class ReplayMarketDataProvider extends MarketDataProvider {
  readonly name = 'replay';
  readonly supportsBatchQuotes = true;
  readonly local = true;
  /** The shipped history is split-adjusted; `splits` names the three splits it spans. */
  readonly adjustedCloses = true;

  constructor(
    private readonly replay: ReplayService,
    private readonly clock: Clock,
  ) {
    super();
  }

  async quote(symbol: string): Promise<ProviderQuote> {
    const market = await this.known(symbol);
    return market.quote(symbol, this.clock.now());
  }

  async quotes(symbols: string[]): Promise<Record<string, ProviderQuote>> {
    const market = await this.replay.market();
    const instant = this.clock.now();
    const quotes: Record<string, ProviderQuote> = {};
    for (const symbol of symbols) if (market.has(symbol)) quotes[symbol] = market.quote(symbol, instant);
    return quotes;
  }

  async dailyHistory(symbol: string, from: string, to: string): Promise<DailyBar[]> {
    const market = await this.known(symbol);
    return market.dailyBars(symbol, from, to, this.clock.now());
  }

  override async splits(symbol: string, from: string, to: string): Promise<SplitHistory> {
    const market = await this.known(symbol);
    return { adjustedCloses: this.adjustedCloses, splits: market.splits(symbol, from, to) };
  }

  async profile(symbol: string): Promise<CompanyProfile> {
    const market = await this.known(symbol);
    const stock = market.dataset.stocks.find((entry) => entry.symbol === symbol);
    return { symbol, name: market.nameOf(symbol), sector: stock?.sector ?? null };
  }

  async search(query: string, limit: number): Promise<SymbolMatch[]> {
    const market = await this.replay.market();
    const candidates = [...market.dataset.universe.stocks, ...market.dataset.universe.indices];
    return rankSymbolMatches(candidates, query, limit);
  }

  async movers(limit: number): Promise<MarketMovers> {
    const market = await this.replay.market();
    const instant = this.clock.now();
    const quotes = market.dataset.stocks.map(({ symbol }) => market.quote(symbol, instant));
    const byChange = quotes
      .map((quote) => ({ quote, changePercent: (quote.price - quote.previousClose) / quote.previousClose }))
      .sort((a, b) => b.changePercent - a.changePercent || a.quote.symbol.localeCompare(b.quote.symbol));
    return {
      gainers: byChange.slice(0, limit).map((entry) => entry.quote),
      losers: byChange
        .slice(-limit)
        .reverse()
        .map((entry) => entry.quote),
    };
  }

  private async known(symbol: string): Promise<ReplayMarket> {
    const market = await this.replay.market();
    if (!market.has(symbol)) throw new UnknownSymbolError(symbol);
    return market;
  }
}
