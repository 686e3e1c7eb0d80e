import type { HttpService } from '@nestjs/axios';
import type { VendorsConfig } from '../../config/vendors.config';
import { AlphaVantageMarketDataProvider } from './alphavantage/alpha-vantage-market-data.provider';
import { FinnhubMarketDataProvider } from './finnhub/finnhub-market-data.provider';
import { MarketDataProvider } from './market-data.provider';
import { keyedOptions, ProviderRegistration } from './provider-registration';
import { YahooMarketDataProvider } from './yahoo/yahoo-market-data.provider';

/** What a market data provider may be built from; the replay is built by its own module. */
export interface MarketDataProviderDependencies {
  http: HttpService;
  vendors: VendorsConfig;
  now: () => Date;
  replay: MarketDataProvider;
}

/**
 * Every value MARKET_DATA_PROVIDER and MARKET_DATA_FALLBACK accept, each with its factory. A new
 * provider is one adapter and one entry here (docs/adding-a-provider.md).
 */
export const MARKET_DATA_PROVIDER_REGISTRY = {
  replay: { create: ({ replay }) => replay },
  yahoo: { create: ({ http, vendors }) => new YahooMarketDataProvider(http, vendors.yahoo) },
  alphavantage: {
    apiKeyVariable: 'ALPHA_VANTAGE_API_KEY',
    create: ({ http, vendors, now }) =>
      new AlphaVantageMarketDataProvider(http, keyedOptions(vendors.alphaVantage), now),
  },
  finnhub: {
    apiKeyVariable: 'FINNHUB_API_KEY',
    create: ({ http, vendors }) => new FinnhubMarketDataProvider(http, keyedOptions(vendors.finnhub)),
  },
} satisfies Record<string, ProviderRegistration<MarketDataProviderDependencies, MarketDataProvider>>;

export type MarketDataProviderName = keyof typeof MARKET_DATA_PROVIDER_REGISTRY;

export const MARKET_DATA_PROVIDERS = Object.keys(MARKET_DATA_PROVIDER_REGISTRY) as MarketDataProviderName[];
