import { HttpService } from '@nestjs/axios';
import { CompanyProfile, DailyBar, MarketMovers, ProviderQuote, SymbolMatch } from '../market-data.provider';
import { ProviderResponseError, VendorUnavailableError, UnknownSymbolError } from '../provider-errors';
import { mapVendorSector } from '../vendor-sector';
import {
  KeyedVendorOptions,
  PerSymbolVendorProvider,
  vendorSymbol,
} from '../http/per-symbol-vendor.provider';
import { DEFAULT_RATE_LIMIT_BACKOFF_MS, requireNumber, vendorGet } from '../http/vendor-http';

const PROVIDER = 'alphavantage';
/** The compact daily series holds the latest 100 bars; anything older needs the full one. */
const COMPACT_SERIES_DAYS = 100;
/** A daily-quota message: no point asking again within the hour. */
const DAILY_LIMIT_BACKOFF_MS = 60 * 60 * 1000;

interface AlphaVantageMessage {
  Note?: string;
  Information?: string;
  'Error Message'?: string;
}
type GlobalQuote = AlphaVantageMessage & { 'Global Quote'?: Record<string, string> };
type DailySeries = AlphaVantageMessage & { 'Time Series (Daily)'?: Record<string, Record<string, string>> };
type SymbolSearch = AlphaVantageMessage & { bestMatches?: Record<string, string>[] };
type Overview = AlphaVantageMessage & { Symbol?: string; Name?: string; Sector?: string };
type Movers = AlphaVantageMessage & {
  top_gainers?: Record<string, string>[];
  top_losers?: Record<string, string>[];
  last_updated?: string;
};

/** Alpha Vantage (www.alphavantage.co/documentation), keyed by ALPHA_VANTAGE_API_KEY. */
export class AlphaVantageMarketDataProvider extends PerSymbolVendorProvider {
  /** TIME_SERIES_DAILY is the raw, as-traded series. */
  readonly adjustedCloses = false;
  readonly name = PROVIDER;

  constructor(
    private readonly http: HttpService,
    private readonly options: KeyedVendorOptions,
    private readonly now: () => Date,
  ) {
    super();
  }

  async quote(symbol: string): Promise<ProviderQuote> {
    const body = await this.query<GlobalQuote>({
      function: 'GLOBAL_QUOTE',
      symbol: vendorSymbol(symbol),
    });
    const quote = body['Global Quote'];
    if (!quote || Object.keys(quote).length === 0) throw new UnknownSymbolError(symbol);
    const field = (name: string): number => requireNumber(PROVIDER, quote[name], name);
    return {
      symbol,
      name: null,
      price: field('05. price'),
      previousClose: field('08. previous close'),
      open: field('02. open'),
      high: field('03. high'),
      low: field('04. low'),
      volume: field('06. volume'),
      asOf: this.now().toISOString(),
    };
  }

  async dailyHistory(symbol: string, from: string, to: string): Promise<DailyBar[]> {
    const daysBack = (this.now().getTime() - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
    const body = await this.query<DailySeries>({
      function: 'TIME_SERIES_DAILY',
      symbol: vendorSymbol(symbol),
      outputsize: daysBack > COMPACT_SERIES_DAYS ? 'full' : 'compact',
    });
    const series = body['Time Series (Daily)'];
    if (!series) throw new ProviderResponseError(PROVIDER, 'daily series missing');
    return Object.entries(series)
      .filter(([date]) => date >= from && date <= to)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([date, bar]) => ({
        date,
        open: requireNumber(PROVIDER, bar['1. open'], 'open'),
        high: requireNumber(PROVIDER, bar['2. high'], 'high'),
        low: requireNumber(PROVIDER, bar['3. low'], 'low'),
        close: requireNumber(PROVIDER, bar['4. close'], 'close'),
        volume: requireNumber(PROVIDER, bar['5. volume'], 'volume'),
      }));
  }

  async profile(symbol: string): Promise<CompanyProfile> {
    const body = await this.query<Overview>({ function: 'OVERVIEW', symbol });
    if (!body.Symbol || !body.Name) throw new UnknownSymbolError(symbol);
    return { symbol, name: body.Name, sector: mapVendorSector(body.Sector) };
  }

  async search(query: string, limit: number): Promise<SymbolMatch[]> {
    const body = await this.query<SymbolSearch>({ function: 'SYMBOL_SEARCH', keywords: query });
    return (body.bestMatches ?? [])
      .filter((match) => match['4. region'] === 'United States')
      .slice(0, limit)
      .map((match) => ({ symbol: match['1. symbol'], name: match['2. name'] }));
  }

  async movers(limit: number): Promise<MarketMovers> {
    const body = await this.query<Movers>({ function: 'TOP_GAINERS_LOSERS' });
    if (!body.top_gainers || !body.top_losers) throw new ProviderResponseError(PROVIDER, 'movers missing');
    const toQuote = (entry: Record<string, string>): ProviderQuote => {
      const price = requireNumber(PROVIDER, entry.price, 'price');
      const change = requireNumber(PROVIDER, entry.change_amount, 'change_amount');
      return {
        symbol: entry.ticker,
        name: null,
        price,
        previousClose: price - change,
        open: price,
        high: price,
        low: price,
        volume: requireNumber(PROVIDER, entry.volume, 'volume'),
        asOf: this.now().toISOString(),
      };
    };
    return {
      gainers: body.top_gainers.slice(0, limit).map(toQuote),
      losers: body.top_losers.slice(0, limit).map(toQuote),
    };
  }

  /** One /query call; Alpha Vantage answers 200 even for errors and rate limits, in the body. */
  private async query<T extends AlphaVantageMessage>(params: Record<string, string>): Promise<T> {
    const { data } = await vendorGet<T>(this.http, PROVIDER, `${this.options.baseUrl}/query`, {
      params: { ...params, apikey: this.options.apiKey },
    });
    if (typeof data !== 'object' || data === null)
      throw new ProviderResponseError(PROVIDER, 'not a JSON object');
    if (data.Note)
      throw new VendorUnavailableError(PROVIDER, 'rate limited (Note)', DEFAULT_RATE_LIMIT_BACKOFF_MS);
    if (data.Information) {
      if (/rate limit|requests per day|call frequency/i.test(data.Information)) {
        throw new VendorUnavailableError(PROVIDER, 'rate limited (Information)', DAILY_LIMIT_BACKOFF_MS);
      }
      throw new ProviderResponseError(PROVIDER, data.Information);
    }
    if (data['Error Message']) {
      if (/apikey/i.test(data['Error Message']))
        throw new ProviderResponseError(PROVIDER, data['Error Message']);
      if (params.symbol) throw new UnknownSymbolError(params.symbol);
      throw new ProviderResponseError(PROVIDER, data['Error Message']);
    }
    return data;
  }
}
