import { HttpService } from '@nestjs/axios';
import {
  CompanyProfile,
  DailyBar,
  MarketDataProvider,
  MarketMovers,
  ProviderQuote,
  SplitHistory,
  StockSplit,
  SymbolMatch,
} from '../market-data.provider';
import { ProviderResponseError, UnknownSymbolError } from '../provider-errors';
import { newYorkTime } from '../../../common/time/new-york-time';
import { requireNumber, vendorGet, vendorNumber } from '../http/vendor-http';
import { mapVendorSector } from '../vendor-sector';

const PROVIDER = 'yahoo';

interface YahooQuote {
  symbol: string;
  shortName?: string;
  longName?: string;
  regularMarketPrice?: number;
  regularMarketPreviousClose?: number;
  regularMarketOpen?: number;
  regularMarketDayHigh?: number;
  regularMarketDayLow?: number;
  regularMarketVolume?: number;
  regularMarketTime?: number;
}
interface YahooError {
  code: string;
  description: string;
}
interface QuoteResponse {
  quoteResponse?: { result: YahooQuote[]; error: YahooError | null };
  finance?: { error: YahooError | null };
}
/** A split event of the v8 chart (`events=split`): `numerator` new shares for `denominator` old. */
interface YahooSplit {
  date: number;
  numerator: number;
  denominator: number;
  splitRatio?: string;
}
interface ChartResponse {
  chart: {
    result:
      | {
          timestamp?: number[];
          events?: { splits?: Record<string, YahooSplit> };
          indicators: {
            quote: {
              open: (number | null)[];
              high: (number | null)[];
              low: (number | null)[];
              close: (number | null)[];
              volume: (number | null)[];
            }[];
          };
        }[]
      | null;
    error: YahooError | null;
  };
}
interface SearchResponse {
  quotes?: {
    symbol: string;
    shortname?: string;
    longname?: string;
    quoteType?: string;
    isYahooFinance?: boolean;
  }[];
}
interface ScreenerResponse {
  finance: { result: { quotes: YahooQuote[] }[] | null; error: YahooError | null };
}
interface QuoteSummaryResponse {
  quoteSummary: {
    result:
      { assetProfile?: { sector?: string }; price?: { longName?: string; shortName?: string } }[] | null;
    error: YahooError | null;
  };
}

export interface YahooOptions {
  /** query1.finance.yahoo.com */
  baseUrl: string;
  /** A Yahoo page that sets the session cookie the crumb is bound to (fc.yahoo.com). */
  cookieUrl: string;
}

/**
 * Yahoo Finance's public JSON API (no key): v7 quote for many symbols at once, v8 chart for
 * history, v1 search, the predefined day_gainers/day_losers screeners and v10 quoteSummary for
 * the sector. v7 and v10 want a "crumb" bound to a session cookie: fetched once, renewed on 401.
 * Class shares are BRK-B at Yahoo and BRK.B here.
 */
export class YahooMarketDataProvider extends MarketDataProvider {
  readonly name = PROVIDER;
  readonly supportsBatchQuotes = true;
  readonly local = false;
  /** v8 chart closes are split-adjusted. */
  readonly adjustedCloses = true;
  private session: Promise<{ cookie: string; crumb: string }> | null = null;

  constructor(
    private readonly http: HttpService,
    private readonly options: YahooOptions,
  ) {
    super();
  }

  async quote(symbol: string): Promise<ProviderQuote> {
    const quote = (await this.quotes([symbol]))[symbol];
    if (!quote) throw new UnknownSymbolError(symbol);
    return quote;
  }

  async quotes(symbols: string[]): Promise<Record<string, ProviderQuote>> {
    const body = await this.withCrumb<QuoteResponse>('/v7/finance/quote', {
      symbols: symbols.map(toYahoo).join(','),
    });
    const result = body.quoteResponse?.result;
    if (!result) throw new ProviderResponseError(PROVIDER, 'quoteResponse missing');
    const quotes: Record<string, ProviderQuote> = {};
    for (const quote of result) {
      const symbol = fromYahoo(quote.symbol);
      if (symbols.includes(symbol) && quote.regularMarketPrice !== undefined) quotes[symbol] = toQuote(quote);
    }
    return quotes;
  }

  async dailyHistory(symbol: string, from: string, to: string): Promise<DailyBar[]> {
    const result = await this.chart(symbol, from, to, 'history');
    const [bars] = result.indicators.quote;
    const bar = (values: (number | null)[], i: number): number | null => vendorNumber(values[i]);
    return (result.timestamp ?? []).flatMap((seconds, i) => {
      const [open, high, low, close] = [bars.open, bars.high, bars.low, bars.close].map((values) =>
        bar(values, i),
      );
      // Yahoo leaves nulls for halted days; they carry no bar.
      if (open === null || high === null || low === null || close === null) return [];
      return [
        {
          date: newYorkTime(new Date(seconds * 1000)).date,
          open,
          high,
          low,
          close,
          volume: bar(bars.volume, i) ?? 0,
        },
      ];
    });
  }

  /** The split events of the v8 chart, each on the New York date of its ex-date's open. */
  override async splits(symbol: string, from: string, to: string): Promise<SplitHistory> {
    const result = await this.chart(symbol, from, to, 'split');
    const splits: StockSplit[] = Object.values(result.events?.splits ?? {})
      .map((event) => ({
        date: newYorkTime(new Date(requireNumber(PROVIDER, event.date, 'split date') * 1000)).date,
        to: requireNumber(PROVIDER, event.numerator, 'split numerator'),
        from: requireNumber(PROVIDER, event.denominator, 'split denominator'),
      }))
      .filter((split) => split.date >= from && split.date <= to && split.to > 0 && split.from > 0)
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    return { adjustedCloses: this.adjustedCloses, splits };
  }

  private async chart(
    symbol: string,
    from: string,
    to: string,
    events: 'history' | 'split',
  ): Promise<NonNullable<ChartResponse['chart']['result']>[number]> {
    const { status, data } = await vendorGet<ChartResponse>(
      this.http,
      PROVIDER,
      `${this.options.baseUrl}/v8/finance/chart/${encodeURIComponent(toYahoo(symbol))}`,
      {
        params: {
          period1: Date.parse(`${from}T00:00:00Z`) / 1000,
          period2: Date.parse(`${to}T23:59:59Z`) / 1000,
          interval: '1d',
          events,
        },
      },
    );
    if (status === 404 || data?.chart?.error?.code === 'Not Found') throw new UnknownSymbolError(symbol);
    const result = data?.chart?.result?.[0];
    if (status !== 200 || !result) throw new ProviderResponseError(PROVIDER, `chart HTTP ${status}`);
    return result;
  }

  async profile(symbol: string): Promise<CompanyProfile> {
    const body = await this.withCrumb<QuoteSummaryResponse>(
      `/v10/finance/quoteSummary/${encodeURIComponent(toYahoo(symbol))}`,
      { modules: 'assetProfile,price' },
      symbol,
    );
    const result = body.quoteSummary?.result?.[0];
    if (!result) throw new UnknownSymbolError(symbol);
    const name = result.price?.longName ?? result.price?.shortName ?? symbol;
    return { symbol, name, sector: mapVendorSector(result.assetProfile?.sector) };
  }

  async search(query: string, limit: number): Promise<SymbolMatch[]> {
    const { status, data } = await vendorGet<SearchResponse>(
      this.http,
      PROVIDER,
      `${this.options.baseUrl}/v1/finance/search`,
      {
        params: { q: query, quotesCount: limit, newsCount: 0 },
      },
    );
    if (status !== 200) throw new ProviderResponseError(PROVIDER, `search HTTP ${status}`);
    return (data.quotes ?? [])
      .filter(
        (quote) =>
          quote.isYahooFinance !== false && ['EQUITY', 'ETF', 'INDEX'].includes(quote.quoteType ?? ''),
      )
      .slice(0, limit)
      .map((quote) => ({
        symbol: fromYahoo(quote.symbol),
        name: quote.longname ?? quote.shortname ?? quote.symbol,
      }));
  }

  async movers(limit: number): Promise<MarketMovers> {
    const screen = async (id: string): Promise<ProviderQuote[]> => {
      const body = await this.withCrumb<ScreenerResponse>('/v1/finance/screener/predefined/saved', {
        scrIds: id,
        count: limit,
      });
      const quotes = body.finance?.result?.[0]?.quotes;
      if (!quotes) throw new ProviderResponseError(PROVIDER, `screener ${id} missing`);
      return quotes.slice(0, limit).map(toQuote);
    };
    return { gainers: await screen('day_gainers'), losers: await screen('day_losers') };
  }

  /** A crumb-protected GET; a 401 means the crumb expired: renew it once. */
  private async withCrumb<T>(
    path: string,
    params: Record<string, string | number>,
    symbol?: string,
  ): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      const { cookie, crumb } = await this.crumb();
      try {
        const { status, data } = await vendorGet<T>(this.http, PROVIDER, `${this.options.baseUrl}${path}`, {
          params: { ...params, crumb },
          headers: { cookie },
        });
        if (status === 404 && symbol) throw new UnknownSymbolError(symbol);
        if (status !== 200) throw new ProviderResponseError(PROVIDER, `${path} HTTP ${status}`);
        return data;
      } catch (error) {
        const expired = error instanceof ProviderResponseError && /HTTP 401/.test(error.message);
        if (!expired || attempt > 0) throw error;
        this.session = null;
      }
    }
  }

  private crumb(): Promise<{ cookie: string; crumb: string }> {
    if (!this.session) {
      this.session = this.openSession();
      this.session.catch(() => {
        this.session = null;
      });
    }
    return this.session;
  }

  private async openSession(): Promise<{ cookie: string; crumb: string }> {
    const landing = await vendorGet<unknown>(this.http, PROVIDER, this.options.cookieUrl);
    const setCookie = landing.headers['set-cookie'];
    const cookie = (Array.isArray(setCookie) ? setCookie : [])
      .map((entry) => String(entry).split(';')[0])
      .join('; ');
    if (!cookie) throw new ProviderResponseError(PROVIDER, 'no session cookie');
    const { status, data } = await vendorGet<string>(
      this.http,
      PROVIDER,
      `${this.options.baseUrl}/v1/test/getcrumb`,
      {
        headers: { cookie },
      },
    );
    if (status !== 200 || typeof data !== 'string' || data.length === 0 || data.includes('<')) {
      throw new ProviderResponseError(PROVIDER, 'no crumb');
    }
    return { cookie, crumb: data };
  }
}

function toYahoo(symbol: string): string {
  return symbol.replace('.', '-');
}

function fromYahoo(symbol: string): string {
  return /^[A-Z]+-[A-Z]$/.test(symbol) ? symbol.replace('-', '.') : symbol;
}

function toQuote(quote: YahooQuote): ProviderQuote {
  const field = (value: unknown, name: string): number => requireNumber(PROVIDER, value, name);
  const price = field(quote.regularMarketPrice, 'regularMarketPrice');
  return {
    symbol: fromYahoo(quote.symbol),
    name: quote.longName ?? quote.shortName ?? null,
    price,
    previousClose: field(quote.regularMarketPreviousClose, 'regularMarketPreviousClose'),
    open: vendorNumber(quote.regularMarketOpen) ?? price,
    high: vendorNumber(quote.regularMarketDayHigh) ?? price,
    low: vendorNumber(quote.regularMarketDayLow) ?? price,
    volume: vendorNumber(quote.regularMarketVolume) ?? 0,
    asOf: new Date(field(quote.regularMarketTime, 'regularMarketTime') * 1000).toISOString(),
  };
}
