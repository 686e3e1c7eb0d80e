// What the rest of the service may use of the vendor integration: the gateway every provider call
// goes through, the provider contracts and errors, and the registries that build a provider from
// its configured name. Adapters stay private to this folder.
export { VendorsModule } from './vendors.module';
export { ProviderCallGateway } from './gateway/provider-call-gateway';
export type { ProviderCall, ProviderCallKey } from './gateway/provider-call-gateway';
export { ProviderResponseError, UnknownSymbolError, VendorUnavailableError } from './provider-errors';
export { MarketDataProvider } from './market-data.provider';
export type {
  CompanyProfile,
  DailyBar,
  MarketMovers,
  ProviderQuote,
  SplitHistory,
  StockSplit,
  SymbolMatch,
} from './market-data.provider';
export { NewsProvider, SocialSentimentProvider } from './news.provider';
export type { NewsFilter, ProviderArticle, SocialSentiment } from './news.provider';
export { rankSymbolMatches } from './symbol-search';
export { keywordAlternatives, matchesAllTerms, matchesKeywords } from './news-text-match';
export type { ProviderRegistration } from './provider-registration';
export { MARKET_DATA_PROVIDER_REGISTRY, MARKET_DATA_PROVIDERS } from './market-data-provider.registry';
export type { MarketDataProviderDependencies, MarketDataProviderName } from './market-data-provider.registry';
export {
  createSocialSentimentProvider,
  NEWS_PROVIDER_REGISTRY,
  NEWS_PROVIDERS,
} from './news-provider.registry';
export type { NewsProviderDependencies, NewsProviderName } from './news-provider.registry';
