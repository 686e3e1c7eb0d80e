// The role every market data adapter plays. Adapters translate one vendor's API into these
// shapes and throw the errors of ./provider-errors; caching, pacing, single-flight and fallback
// live in front of them (ProviderCallGateway, MarketDataClient), never inside.

export interface ProviderQuote {
  /** The symbol as the service writes it (upper case, class shares with a dot: BRK.B). */
  symbol: string;
  name: string | null;
  price: number;
  previousClose: number;
  open: number;
  high: number;
  low: number;
  volume: number;
  /** ISO instant the price was observed at (a string so cached copies survive JSON stores). */
  asOf: string;
}

export interface DailyBar {
  /** YYYY-MM-DD, exchange local date. */
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface CompanyProfile {
  symbol: string;
  name: string;
  /** One of the spec's market sectors (technology, healthcare, ...), or null when unknown. */
  sector: string | null;
}

export interface SymbolMatch {
  symbol: string;
  name: string;
}

export interface MarketMovers {
  gainers: ProviderQuote[];
  losers: ProviderQuote[];
}

export abstract class MarketDataProvider {
  /** The name used in MARKET_DATA_PROVIDER and as the pacing key. */
  abstract readonly name: string;
  /** Whether `quotes` fetches many symbols in one request (else the client calls `quote` per symbol). */
  abstract readonly supportsBatchQuotes: boolean;
  /** Local providers (the replay) are not paced: there is no vendor to be polite to. */
  abstract readonly local: boolean;

  /** Throws UnknownSymbolError when the vendor does not know the symbol. */
  abstract quote(symbol: string): Promise<ProviderQuote>;

  /** Quotes of the symbols the vendor knows; unknown symbols are simply absent from the map. */
  abstract quotes(symbols: string[]): Promise<Record<string, ProviderQuote>>;

  /** Daily bars with `from` <= date <= `to` (YYYY-MM-DD), oldest first. */
  abstract dailyHistory(symbol: string, from: string, to: string): Promise<DailyBar[]>;

  abstract profile(symbol: string): Promise<CompanyProfile>;

  abstract search(query: string, limit: number): Promise<SymbolMatch[]>;

  /** The day's largest gainers and losers, `limit` of each, by change percent. */
  abstract movers(limit: number): Promise<MarketMovers>;
}
