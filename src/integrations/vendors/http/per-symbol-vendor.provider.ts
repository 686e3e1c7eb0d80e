import { MarketDataProvider, ProviderQuote } from '../market-data.provider';
import { UnknownSymbolError } from '../provider-errors';

/** Where a keyed vendor (Alpha Vantage, Finnhub) is reached and with what key. */
export interface KeyedVendorOptions {
  apiKey: string;
  baseUrl: string;
}

/** Alpha Vantage's standard and Finnhub's free plan quote no indices: each is read from the ETF tracking it. */
const INDEX_PROXIES: Record<string, string> = { '^GSPC': 'SPY', '^DJI': 'DIA', '^IXIC': 'QQQ' };

/** The symbol to ask such a vendor for: the tracking ETF for an index, else the symbol itself. */
export function vendorSymbol(symbol: string): string {
  return INDEX_PROXIES[symbol] ?? symbol;
}

/** A remote vendor without a batch quote endpoint: many quotes are one request per symbol. */
export abstract class PerSymbolVendorProvider extends MarketDataProvider {
  readonly supportsBatchQuotes = false;
  readonly local = false;

  async quotes(symbols: string[]): Promise<Record<string, ProviderQuote>> {
    const quotes: Record<string, ProviderQuote> = {};
    for (const symbol of symbols) {
      try {
        quotes[symbol] = await this.quote(symbol);
      } catch (error) {
        if (!(error instanceof UnknownSymbolError)) throw error;
      }
    }
    return quotes;
  }
}
