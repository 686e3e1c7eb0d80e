import { Injectable } from '@nestjs/common';
import { ProviderUnavailableError, RuleViolationError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { FieldProblems } from '../../common/errors/field-problems';
import { Clock } from '../../common/time/clock';
import { newYorkTime } from '../../common/time/new-york-time';
import {
  CompanyProfile,
  DailyBar,
  ProviderQuote,
  SplitHistory,
  SymbolMatch,
  UnknownSymbolError,
} from '../../integrations/vendors';
import { MarketDataClient } from './market-data.client';
import { StockNotFoundError } from './market-errors';
import { normalizeSymbol } from './market-symbols';
import {
  BatchQuotes,
  DailyClose,
  HistoryQuery,
  IndexLevel,
  MarketSummary,
  PriceHistory,
  StockQuote,
  SymbolSplits,
} from './market.types';
import { aggregateBars, oneYearBefore, yearsBefore } from './price-history';

export const INDEX_SYMBOLS = ['^GSPC', '^DJI', '^IXIC'] as const;
const INDEX_NAMES: Record<string, string> = { '^GSPC': 'S&P 500', '^DJI': 'Dow Jones', '^IXIC': 'NASDAQ' };
export const MAX_BATCH_SYMBOLS = 10;
const SUMMARY_MOVERS = 5;
const MAX_HISTORY_YEARS = 20;
/** A cheap, always-known symbol to ask the provider for when reporting health (answer is cached). */
const STATUS_PROBE_SYMBOL = 'AAPL';

/**
 * Market data for the HTTP layer and for other modules (portfolio, news, health). Symbols may be
 * given in any case, with spaces around them, and class shares as BRK.B or BRK-B.
 */
@Injectable()
export class MarketService {
  constructor(
    private readonly client: MarketDataClient,
    private readonly clock: Clock,
  ) {}

  /** One quote. 404 `Stock X not found` for an unknown symbol, 500 when the provider fails. */
  async getQuote(rawSymbol: string): Promise<StockQuote> {
    const symbol = normalizeSymbol(rawSymbol);
    try {
      return toStockQuote(await this.client.quote(symbol));
    } catch (error) {
      throw symbolLookupFailure(symbol, error, ErrorDetail.stockDataRetrievalFailed(symbol));
    }
  }

  /**
   * Quotes for many symbols in one provider request where the provider allows it (portfolio
   * valuation). Keyed by normalized symbol; null for an unknown symbol or one the provider could
   * not price. 500 `Failed to retrieve batch stock data` when the provider fails altogether.
   */
  async getQuotes(rawSymbols: string[]): Promise<Map<string, StockQuote | null>> {
    const symbols = [...new Set(rawSymbols.map(normalizeSymbol))];
    const result = new Map<string, StockQuote | null>();
    if (symbols.length === 0) return result;
    const lookups = await this.client.quotes(symbols).catch((error: unknown) => {
      throw new ProviderUnavailableError(ErrorDetail.batchRetrievalFailed, { cause: error });
    });
    for (const symbol of symbols) {
      const lookup = lookups.get(symbol);
      result.set(symbol, typeof lookup === 'object' ? toStockQuote(lookup) : null);
    }
    return result;
  }

  /**
   * The batch endpoint: `requested` is already trimmed, upper-cased and de-duplicated (see
   * parseSymbolList). 400 beyond 10 symbols; unknown or failed symbols get `{error}` entries.
   */
  async getBatch(requested: string[]): Promise<BatchQuotes> {
    if (requested.length > MAX_BATCH_SYMBOLS) {
      throw new RuleViolationError(ErrorDetail.tooManyBatchSymbols);
    }
    const normalized = new Map(requested.map((symbol) => [symbol, normalizeSymbol(symbol)]));
    const lookups = await this.client.quotes([...new Set(normalized.values())]).catch((error: unknown) => {
      throw new ProviderUnavailableError(ErrorDetail.batchRetrievalFailed, { cause: error });
    });
    const data: BatchQuotes['data'] = {};
    for (const [requestedSymbol, symbol] of normalized) {
      const lookup = lookups.get(symbol);
      if (typeof lookup === 'object') data[requestedSymbol] = toStockQuote(lookup);
      else if (lookup === 'failed')
        data[requestedSymbol] = { error: ErrorDetail.stockDataRetrievalFailed(symbol) };
      else data[requestedSymbol] = { error: ErrorDetail.stockNotFound(symbol) };
    }
    return { data, requestedSymbols: requested };
  }

  /** The three indices and the universe's top 5 gainers and losers. 500 when anything fails. */
  async getSummary(): Promise<MarketSummary> {
    try {
      const [indexQuotes, movers] = await Promise.all([
        this.client.quotes([...INDEX_SYMBOLS]),
        this.client.movers(SUMMARY_MOVERS),
      ]);
      const indices = INDEX_SYMBOLS.map((symbol): IndexLevel => {
        const quote = indexQuotes.get(symbol);
        if (typeof quote !== 'object') throw new Error(`no level for ${symbol}`);
        const stock = toStockQuote(quote);
        const { change, changePercent } = stock;
        return { symbol, name: INDEX_NAMES[symbol], value: stock.price, change, changePercent };
      });
      return {
        indices,
        topGainers: movers.gainers.map(toStockQuote),
        topLosers: movers.losers.map(toStockQuote),
      };
    } catch (error) {
      throw new ProviderUnavailableError(ErrorDetail.summaryRetrievalFailed, { cause: error });
    }
  }

  /**
   * Bars oldest first for `from`..`to` (default: the last year up to today), daily, weekly or
   * monthly; index symbols (^GSPC, ^DJI, ^IXIC) work too. 404 for an unknown symbol.
   */
  async getHistory(rawSymbol: string, query: HistoryQuery = {}): Promise<PriceHistory> {
    const symbol = normalizeSymbol(rawSymbol);
    const interval = query.interval ?? '1d';
    const to = query.to ?? this.today();
    const from = query.from ?? oneYearBefore(to);
    if (from > to) throw rangeError('from must not be after to');
    if (Date.parse(to) - Date.parse(from) > MAX_HISTORY_YEARS * 366 * 86_400_000) {
      throw rangeError(`the range may span at most ${MAX_HISTORY_YEARS} years`);
    }
    const daily = await this.dailyBars(symbol, from, to);
    return { symbol, interval, bars: aggregateBars(daily, interval) };
  }

  /**
   * Each symbol's daily closes oldest first from `from` to today, as getHistory would list them (the
   * daily bars themselves: a bar has its date and close), by the symbol as given; a symbol the
   * provider does not know has none. While the provider's answer is cached in this process the same
   * frozen array is returned, so that callers can reuse what they derived from it (the portfolio
   * analytics), and it is handed over without a wait per symbol: the valued portfolio reads ask for
   * every symbol of a ledger on each request, and a chain of promises per symbol was 40 % of what
   * such a request allocated, whose garbage collection made those routes' p99. The history route's
   * limits on its query are not this caller's: a ledger may start decades ago, and the provider
   * answers what it has.
   */
  async getDailyCloses(
    rawSymbols: readonly string[],
    from: string,
  ): Promise<Map<string, readonly DailyClose[]>> {
    const to = this.today();
    const found = new Map<string, readonly DailyClose[]>();
    const missing: string[] = [];
    for (const raw of rawSymbols) {
      const held = from > to ? [] : this.client.heldDailyHistory(normalizeSymbol(raw), from, to);
      if (held) found.set(raw, held);
      else missing.push(raw);
    }
    await Promise.all(
      missing.map(async (raw) => {
        try {
          found.set(raw, await this.dailyBars(normalizeSymbol(raw), from, to));
        } catch (error) {
          if (!(error instanceof StockNotFoundError)) throw error;
          found.set(raw, []);
        }
      }),
    );
    return new Map(rawSymbols.map((raw) => [raw, found.get(raw)!]));
  }

  /**
   * The splits the provider knows for the symbol dated `from` (default: 20 years ago) to today,
   * oldest first, and whether its daily closes are adjusted for them. 404 for an unknown symbol.
   */
  async getSplits(rawSymbol: string, from?: string): Promise<SymbolSplits> {
    const symbol = normalizeSymbol(rawSymbol);
    const to = this.today();
    const since = from ?? yearsBefore(to, MAX_HISTORY_YEARS);
    let history: SplitHistory;
    try {
      history = await this.client.splits(symbol, since, to);
    } catch (error) {
      throw symbolLookupFailure(symbol, error, ErrorDetail.stockDataRetrievalFailed(symbol));
    }
    return { symbol, ...history };
  }

  private today(): string {
    return newYorkTime(this.clock.now()).date;
  }

  private async dailyBars(symbol: string, from: string, to: string): Promise<readonly DailyBar[]> {
    try {
      return await this.client.dailyHistory(symbol, from, to);
    } catch (error) {
      throw symbolLookupFailure(symbol, error, ErrorDetail.priceHistoryRetrievalFailed(symbol));
    }
  }

  /** Name and sector (one of the spec's market sectors, or null). 404 for an unknown symbol. */
  async getProfile(rawSymbol: string): Promise<CompanyProfile> {
    const symbol = normalizeSymbol(rawSymbol);
    try {
      return await this.client.profile(symbol);
    } catch (error) {
      throw symbolLookupFailure(symbol, error, ErrorDetail.stockDataRetrievalFailed(symbol));
    }
  }

  /** Symbols whose ticker or company name matches `query`, best first. */
  async search(query: string, limit: number): Promise<SymbolMatch[]> {
    try {
      return await this.client.search(query.trim(), limit);
    } catch (error) {
      throw new ProviderUnavailableError(ErrorDetail.symbolSearchFailed, { cause: error });
    }
  }

  /** `active` when the configured provider answers (cheap: the probe quote is cached). */
  async status(): Promise<'active' | 'unavailable'> {
    try {
      await this.client.quote(STATUS_PROBE_SYMBOL);
      return 'active';
    } catch {
      return 'unavailable';
    }
  }
}

function rangeError(message: string): FieldProblems {
  return FieldProblems.invalid(['from'], message);
}

/** 404 when the provider does not know the symbol; any other failure is the provider's (500). */
function symbolLookupFailure(symbol: string, error: unknown, detail: string): Error {
  if (error instanceof UnknownSymbolError) return new StockNotFoundError(symbol);
  return new ProviderUnavailableError(detail, { cause: error });
}

function toStockQuote(quote: ProviderQuote): StockQuote {
  const change = quote.price - quote.previousClose;
  return {
    symbol: quote.symbol,
    name: quote.name ?? quote.symbol,
    price: quote.price,
    change,
    changePercent: quote.previousClose === 0 ? 0 : (change / quote.previousClose) * 100,
    previousClose: quote.previousClose,
    open: quote.open,
    high: quote.high,
    low: quote.low,
    volume: quote.volume,
    asOf: quote.asOf,
  };
}
