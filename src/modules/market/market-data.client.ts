import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CompanyProfile,
  DailyBar,
  MarketDataProvider,
  MarketMovers,
  ProviderCallGateway,
  ProviderCallKey,
  ProviderQuote,
  ProviderResponseError,
  SplitHistory,
  SymbolMatch,
  UnknownSymbolError,
  VendorUnavailableError,
} from '../../integrations/vendors';

/** The configured providers, primary first, then MARKET_DATA_FALLBACK in order. */
export const MARKET_DATA_PROVIDER_CHAIN = Symbol('MARKET_DATA_PROVIDER_CHAIN');

export interface MarketDataClientOptions {
  quoteTtlMs: number;
  minIntervalMs: number;
}
export const MARKET_DATA_CLIENT_OPTIONS = Symbol('MARKET_DATA_CLIENT_OPTIONS');

const PROFILE_TTL_MS = 24 * 60 * 60 * 1000;
const SEARCH_TTL_MS = 60 * 60 * 1000;

/** A quote, or why there is none for that symbol. */
export type QuoteLookup = ProviderQuote | 'unknown' | 'failed';

/**
 * Every market data request goes through here: through the gateway (cache, pacing, single-flight)
 * to the primary provider, and on a retryable failure (timeout, 5xx, rate limit) to the fallbacks
 * in order. "Unknown symbol" is an answer and never triggers a fallback.
 */
@Injectable()
export class MarketDataClient {
  private readonly logger = new Logger(MarketDataClient.name);

  constructor(
    @Inject(MARKET_DATA_PROVIDER_CHAIN) private readonly providers: MarketDataProvider[],
    private readonly gateway: ProviderCallGateway,
    @Inject(MARKET_DATA_CLIENT_OPTIONS) private readonly options: MarketDataClientOptions,
  ) {}

  get primaryProvider(): string {
    return this.providers[0].name;
  }

  /**
   * A quote the local primary provider answered and this process still holds is handed over at
   * once, as the gateway would (the cached quote is a light route): no fallback loop, no pacing.
   */
  quote(symbol: string): Promise<ProviderQuote> {
    const [primary] = this.providers;
    const held =
      primary.local && this.options.quoteTtlMs > 0
        ? this.gateway.cachedLocalAnswer<ProviderQuote>(this.quoteKey(primary, symbol))
        : undefined;
    return held !== undefined
      ? Promise.resolve(held)
      : this.withFallback((provider) => this.quoteFrom(provider, symbol));
  }

  /** One entry per symbol; a single request where the provider has a multi-symbol call. */
  quotes(symbols: string[]): Promise<Map<string, QuoteLookup>> {
    return this.withFallback((provider) => this.quotesFrom(provider, symbols));
  }

  dailyHistory(symbol: string, from: string, to: string): Promise<DailyBar[]> {
    return this.withFallback((provider) =>
      this.gateway.call({
        ...this.pacing(provider),
        kind: 'history',
        key: historyKey(symbol, from, to),
        ttlMs: this.options.quoteTtlMs,
        fetch: () => provider.dailyHistory(symbol, from, to),
      }),
    );
  }

  /**
   * What `dailyHistory` would answer from a local primary provider's fresh answer kept in this
   * process, at once (no promise); undefined when there is none.
   */
  heldDailyHistory(symbol: string, from: string, to: string): DailyBar[] | undefined {
    const [primary] = this.providers;
    return primary.local
      ? this.gateway.peekLocal<DailyBar[]>({
          provider: primary.name,
          kind: 'history',
          key: historyKey(symbol, from, to),
        })
      : undefined;
  }

  profile(symbol: string): Promise<CompanyProfile> {
    return this.withFallback((provider) =>
      this.gateway.call({
        ...this.pacing(provider),
        kind: 'profile',
        key: symbol,
        ttlMs: PROFILE_TTL_MS,
        fetch: () => provider.profile(symbol),
      }),
    );
  }

  splits(symbol: string, from: string, to: string): Promise<SplitHistory> {
    return this.withFallback((provider) =>
      this.gateway.call({
        ...this.pacing(provider),
        kind: 'splits',
        key: `${symbol}:${from}:${to}`,
        ttlMs: PROFILE_TTL_MS,
        fetch: () => provider.splits(symbol, from, to),
      }),
    );
  }

  search(query: string, limit: number): Promise<SymbolMatch[]> {
    return this.withFallback((provider) =>
      this.gateway.call({
        ...this.pacing(provider),
        kind: 'search',
        key: `${limit}:${query.toLowerCase()}`,
        ttlMs: SEARCH_TTL_MS,
        fetch: () => provider.search(query, limit),
      }),
    );
  }

  movers(limit: number): Promise<MarketMovers> {
    return this.withFallback((provider) =>
      this.gateway.call({
        ...this.pacing(provider),
        kind: 'movers',
        key: String(limit),
        ttlMs: this.options.quoteTtlMs,
        fetch: () => provider.movers(limit),
      }),
    );
  }

  private quoteFrom(provider: MarketDataProvider, symbol: string): Promise<ProviderQuote> {
    return this.gateway.call({
      ...this.pacing(provider),
      kind: 'quote',
      key: symbol,
      ttlMs: this.options.quoteTtlMs,
      fetch: () => provider.quote(symbol),
    });
  }

  private async quotesFrom(
    provider: MarketDataProvider,
    symbols: string[],
  ): Promise<Map<string, QuoteLookup>> {
    const found = new Map<string, QuoteLookup>();
    const missing: string[] = [];
    for (const symbol of symbols) {
      const key = this.quoteKey(provider, symbol);
      // A local provider's quotes are in this process: no wait per symbol.
      const cached = provider.local
        ? this.gateway.peekLocal<ProviderQuote>(key)
        : await this.gateway.peek<ProviderQuote>(key);
      if (cached) found.set(symbol, cached);
      else missing.push(symbol);
    }
    if (missing.length === 0) return found;
    if (provider.supportsBatchQuotes) {
      const fetched = await this.gateway.call({
        ...this.pacing(provider),
        kind: 'quotes',
        key: missing.join(','),
        ttlMs: 0,
        fetch: () => provider.quotes(missing),
      });
      for (const symbol of missing) {
        const quote = fetched[symbol];
        found.set(symbol, quote ?? 'unknown');
        if (quote) await this.gateway.store(this.quoteKey(provider, symbol), quote, this.options.quoteTtlMs);
      }
      return found;
    }
    let lastFailure: unknown = null;
    await Promise.all(
      missing.map(async (symbol) => {
        try {
          found.set(symbol, await this.quoteFrom(provider, symbol));
        } catch (error) {
          if (error instanceof UnknownSymbolError) {
            found.set(symbol, 'unknown');
          } else {
            found.set(symbol, 'failed');
            lastFailure = error;
          }
        }
      }),
    );
    // Some failed symbols still leave a useful batch; when every symbol failed, the batch failed.
    if (lastFailure && missing.every((symbol) => found.get(symbol) === 'failed')) throw lastFailure;
    return found;
  }

  private pacing(provider: MarketDataProvider): { provider: string; minIntervalMs: number; local: boolean } {
    return {
      provider: provider.name,
      minIntervalMs: provider.local ? 0 : this.options.minIntervalMs,
      local: provider.local,
    };
  }

  private quoteKey(provider: MarketDataProvider, symbol: string): ProviderCallKey {
    return { provider: provider.name, kind: 'quote', key: symbol, local: provider.local };
  }

  private async withFallback<T>(attempt: (provider: MarketDataProvider) => Promise<T>): Promise<T> {
    let lastError: unknown = null;
    for (const provider of this.providers) {
      try {
        return await attempt(provider);
      } catch (error) {
        // The HTTP answer only says "Failed to retrieve ..."; the vendor's reason goes to the log.
        if (error instanceof VendorUnavailableError || error instanceof ProviderResponseError) {
          this.logger.warn(error.message);
        }
        if (!(error instanceof VendorUnavailableError)) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }
}

function historyKey(symbol: string, from: string, to: string): string {
  return `${symbol}:${from}:${to}`;
}
