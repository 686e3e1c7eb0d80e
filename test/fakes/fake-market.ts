import { NotFoundError } from '../../src/common/errors/domain-errors';
import { ErrorDetail } from '../../src/common/errors/error-details';
import { MarketService } from '../../src/modules/market/market.service';
import { StockQuote } from '../../src/modules/market/market.types';
import { DailyClose } from '../../src/modules/portfolio/analytics/daily-returns';

type MarketReads = Pick<MarketService, 'getQuotes' | 'getProfile' | 'getDailyCloses' | 'getSplits'>;
type SymbolSplits = Awaited<ReturnType<MarketService['getSplits']>>;
type CompanyProfile = Awaited<ReturnType<MarketService['getProfile']>>;

/** A quote whose day change is `price − previousClose`. */
export function stockQuote(symbol: string, price: number, previousClose: number, asOf: Date): StockQuote {
  return {
    symbol,
    name: symbol,
    price,
    change: price - previousClose,
    changePercent: 0,
    previousClose,
    open: previousClose,
    high: price,
    low: previousClose,
    volume: 1,
    asOf: asOf.toISOString(),
  };
}

/**
 * The market's reads over data a test sets: a symbol without a quote is unknown to the provider,
 * one without closes has no history (an empty series, as the market answers it). Calls are recorded.
 */
export class FakeMarket implements MarketReads {
  readonly quotes = new Map<string, StockQuote | null>();
  readonly sectors = new Map<string, string | null>();
  readonly closes = new Map<string, readonly DailyClose[]>();
  /** Per symbol; a known symbol without an entry has split-adjusted closes and no split. */
  readonly splits = new Map<string, Omit<SymbolSplits, 'symbol'>>();
  readonly quoteCalls: string[][] = [];
  readonly profileCalls: string[] = [];
  readonly splitCalls: string[] = [];

  async getQuotes(symbols: string[]): Promise<Map<string, StockQuote | null>> {
    this.quoteCalls.push(symbols);
    return new Map(symbols.map((symbol) => [symbol, this.quotes.get(symbol) ?? null]));
  }

  async getProfile(symbol: string): Promise<CompanyProfile> {
    this.profileCalls.push(symbol);
    const quote = this.quotes.get(symbol);
    if (!quote) throw new NotFoundError(ErrorDetail.stockNotFound(symbol));
    return { symbol, name: quote.name, sector: this.sectors.get(symbol) ?? null };
  }

  async getDailyCloses(symbols: readonly string[]): Promise<Map<string, readonly DailyClose[]>> {
    return new Map(symbols.map((symbol) => [symbol, this.closes.get(symbol) ?? []]));
  }

  async getSplits(symbol: string): Promise<SymbolSplits> {
    this.splitCalls.push(symbol);
    if (!this.quotes.get(symbol)) throw new NotFoundError(ErrorDetail.stockNotFound(symbol));
    return { symbol, ...(this.splits.get(symbol) ?? { adjustedCloses: true, splits: [] }) };
  }
}
