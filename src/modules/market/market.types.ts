import { DailyBar, SplitHistory } from '../../integrations/vendors';
import { HistoryInterval } from './price-history';

/** A quote as the service's consumers use it; unrounded (round at the response edge). */
export interface StockQuote {
  symbol: string;
  name: string;
  price: number;
  change: number;
  /** Percent, negative for a loss. */
  changePercent: number;
  previousClose: number;
  open: number;
  high: number;
  low: number;
  volume: number;
  /** ISO instant of the price. */
  asOf: string;
}

export interface IndexLevel {
  symbol: string;
  name: string;
  value: number;
  change: number;
  changePercent: number;
}

export interface MarketSummary {
  indices: IndexLevel[];
  topGainers: StockQuote[];
  topLosers: StockQuote[];
}

export interface BatchQuotes {
  /** Keyed by the requested symbol (trimmed, upper case). */
  data: Record<string, StockQuote | { error: string }>;
  requestedSymbols: string[];
}

export interface PriceHistory {
  symbol: string;
  interval: HistoryInterval;
  bars: DailyBar[];
}

export interface HistoryQuery {
  /** YYYY-MM-DD; default one year before `to`. */
  from?: string;
  /** YYYY-MM-DD; default today (New York). */
  to?: string;
  interval?: HistoryInterval;
}

/** One trading day's close, YYYY-MM-DD. */
export interface DailyClose {
  date: string;
  close: number;
}

/** The splits a provider knows for a symbol and the basis of its closes. */
export interface SymbolSplits extends SplitHistory {
  symbol: string;
}
