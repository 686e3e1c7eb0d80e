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

/** A split effective at the open of `date` (its ex-date): `to` shares for every `from` held. */
export interface StockSplit {
  /** YYYY-MM-DD, exchange local date. */
  date: string;
  to: number;
  from: number;
}

/** The splits a provider knows for a symbol, and the basis its daily closes are on. */
export interface SplitHistory {
  /** Whether closes before a split are divided by its ratio (continuous prices), as most vendors send them. */
  adjustedCloses: boolean;
  /** Oldest first. */
  splits: StockSplit[];
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
  /** Whether `dailyHistory`'s closes are split-adjusted. */
  abstract readonly adjustedCloses: boolean;

  /** Throws UnknownSymbolError when the vendor does not know the symbol. */
  abstract quote(symbol: string): Promise<ProviderQuote>;

  /** Quotes of the symbols the vendor knows; unknown symbols are simply absent from the map. */
  abstract quotes(symbols: string[]): Promise<Record<string, ProviderQuote>>;

  /** Daily bars with `from` <= date <= `to` (YYYY-MM-DD), oldest first. */
  abstract dailyHistory(symbol: string, from: string, to: string): Promise<DailyBar[]>;

  abstract profile(symbol: string): Promise<CompanyProfile>;

  abstract search(query: string, limit: number): Promise<SymbolMatch[]>;

  /**
   * The splits dated `from`..`to` (YYYY-MM-DD) and the closes' basis. Throws UnknownSymbolError for
   * an unknown symbol. Vendors whose endpoints we call report no splits: the list is empty.
   */
  async splits(symbol: string, _from: string, _to: string): Promise<SplitHistory> {
    await this.profile(symbol);
    return { adjustedCloses: this.adjustedCloses, splits: [] };
  }

  /** The day's largest gainers and losers, `limit` of each, by change percent. */
  abstract movers(limit: number): Promise<MarketMovers>;
}
