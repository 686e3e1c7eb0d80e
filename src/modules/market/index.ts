// What other modules may use of market data: the module, its service, the symbol rule and the
// shapes the service returns.
export { MarketModule } from './market.module';
export { MarketService } from './market.service';
export { normalizeSymbol } from './market-symbols';
export type {
  BatchQuotes,
  DailyClose,
  HistoryQuery,
  IndexLevel,
  MarketSummary,
  PriceHistory,
  StockQuote,
  SymbolSplits,
} from './market.types';
