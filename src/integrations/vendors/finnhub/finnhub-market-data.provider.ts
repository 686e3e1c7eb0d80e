import { HttpService } from '@nestjs/axios';
import { CompanyProfile, DailyBar, MarketMovers, ProviderQuote, SymbolMatch } from '../market-data.provider';
import { ProviderResponseError, VendorUnavailableError, UnknownSymbolError } from '../provider-errors';
import { newYorkTime } from '../../../common/time/new-york-time';
import {
  KeyedVendorOptions,
  PerSymbolVendorProvider,
  vendorSymbol,
} from '../http/per-symbol-vendor.provider';
import { requireNumber } from '../http/vendor-http';
import { finnhubGet } from './finnhub-get';
import { mapVendorSector } from '../vendor-sector';

const PROVIDER = 'finnhub';

interface FinnhubQuote {
  c: number;
  h: number;
  l: number;
  o: number;
  pc: number;
  t: number;
}
interface FinnhubCandles {
  s: 'ok' | 'no_data';
  t?: number[];
  o?: number[];
  h?: number[];
  l?: number[];
  c?: number[];
  v?: number[];
}
interface FinnhubSearch {
  result?: { symbol: string; displaySymbol: string; description: string; type: string }[];
}
interface FinnhubProfile {
  ticker?: string;
  name?: string;
  finnhubIndustry?: string;
}

/** Finnhub (finnhub.io/docs/api), keyed by FINNHUB_API_KEY. */
export class FinnhubMarketDataProvider extends PerSymbolVendorProvider {
  /** Daily candles are split-adjusted. */
  readonly adjustedCloses = true;
  readonly name = PROVIDER;

  constructor(
    private readonly http: HttpService,
    private readonly options: KeyedVendorOptions,
  ) {
    super();
  }

  async quote(symbol: string): Promise<ProviderQuote> {
    const body = await this.get<FinnhubQuote>('/api/v1/quote', { symbol: vendorSymbol(symbol) });
    // Finnhub answers an unknown symbol with a quote of zeros.
    if (!body.t || !body.c) throw new UnknownSymbolError(symbol);
    return {
      symbol,
      name: null,
      price: requireNumber(PROVIDER, body.c, 'c'),
      previousClose: requireNumber(PROVIDER, body.pc, 'pc'),
      open: requireNumber(PROVIDER, body.o, 'o'),
      high: requireNumber(PROVIDER, body.h, 'h'),
      low: requireNumber(PROVIDER, body.l, 'l'),
      volume: 0,
      asOf: new Date(body.t * 1000).toISOString(),
    };
  }

  async dailyHistory(symbol: string, from: string, to: string): Promise<DailyBar[]> {
    const body = await this.get<FinnhubCandles>('/api/v1/stock/candle', {
      symbol: vendorSymbol(symbol),
      resolution: 'D',
      from: Date.parse(`${from}T00:00:00Z`) / 1000,
      to: Date.parse(`${to}T23:59:59Z`) / 1000,
    });
    if (body.s === 'no_data') return [];
    const { t, o, h, l, c, v } = body;
    if (!t || !o || !h || !l || !c || !v) throw new ProviderResponseError(PROVIDER, 'candles missing');
    return t.map((seconds, i) => ({
      date: newYorkTime(new Date(seconds * 1000)).date,
      open: o[i],
      high: h[i],
      low: l[i],
      close: c[i],
      volume: v[i],
    }));
  }

  async profile(symbol: string): Promise<CompanyProfile> {
    const body = await this.get<FinnhubProfile>('/api/v1/stock/profile2', { symbol });
    if (!body.ticker || !body.name) throw new UnknownSymbolError(symbol);
    return { symbol, name: body.name, sector: mapVendorSector(body.finnhubIndustry) };
  }

  async search(query: string, limit: number): Promise<SymbolMatch[]> {
    const body = await this.get<FinnhubSearch>('/api/v1/search', { q: query, exchange: 'US' });
    return (body.result ?? [])
      .slice(0, limit)
      .map((match) => ({ symbol: match.symbol, name: match.description }));
  }

  movers(): Promise<MarketMovers> {
    // Retryable on purpose: the next provider in MARKET_DATA_FALLBACK can answer it.
    return Promise.reject(new VendorUnavailableError(PROVIDER, 'has no market movers endpoint'));
  }

  private get<T>(path: string, params: Record<string, string | number>): Promise<T> {
    return finnhubGet<T>(this.http, this.options, path, params);
  }
}
