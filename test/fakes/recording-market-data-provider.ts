import {
  CompanyProfile,
  DailyBar,
  MarketDataProvider,
  MarketMovers,
  ProviderQuote,
  SymbolMatch,
  UnknownSymbolError,
} from '../../src/integrations/vendors';

/** A vendor that knows a few symbols, records every request, and can be told to be down. */
export class RecordingMarketDataProvider extends MarketDataProvider {
  /** Whether its answers are kept in the process, as the replay's are. */
  local = false;
  readonly adjustedCloses = true;
  readonly requests: string[] = [];
  failure: Error | null = null;

  constructor(
    readonly name: string,
    readonly supportsBatchQuotes: boolean,
    private readonly prices: Record<string, number>,
  ) {
    super();
  }

  async quote(symbol: string): Promise<ProviderQuote> {
    this.record(`quote ${symbol}`);
    if (!(symbol in this.prices)) throw new UnknownSymbolError(symbol);
    return this.quoteOf(symbol);
  }

  async quotes(symbols: string[]): Promise<Record<string, ProviderQuote>> {
    this.record(`quotes ${symbols.join(',')}`);
    return Object.fromEntries(
      symbols.filter((symbol) => symbol in this.prices).map((s) => [s, this.quoteOf(s)]),
    );
  }

  async dailyHistory(symbol: string, from: string): Promise<DailyBar[]> {
    this.record(`history ${symbol}`);
    return [{ date: from, open: 1, high: 1, low: 1, close: 1, volume: 1 }];
  }

  async profile(symbol: string): Promise<CompanyProfile> {
    this.record(`profile ${symbol}`);
    return { symbol, name: symbol, sector: null };
  }

  async search(query: string): Promise<SymbolMatch[]> {
    this.record(`search ${query}`);
    return [];
  }

  async movers(): Promise<MarketMovers> {
    this.record('movers');
    return { gainers: [], losers: [] };
  }

  private record(request: string): void {
    this.requests.push(request);
    if (this.failure) throw this.failure;
  }

  private quoteOf(symbol: string): ProviderQuote {
    const price = this.prices[symbol];
    return {
      symbol,
      name: `${this.name} ${symbol}`,
      price,
      previousClose: price,
      open: price,
      high: price,
      low: price,
      volume: 0,
      asOf: '',
    };
  }
}
