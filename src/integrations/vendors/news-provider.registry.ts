import type { HttpService } from '@nestjs/axios';
import type { VendorsConfig } from '../../config/vendors.config';
import { FinnhubNewsProvider } from './finnhub/finnhub-news.provider';
import { NewsProvider, SocialSentimentProvider } from './news.provider';
import { NewsApiNewsProvider } from './newsapi/newsapi-news.provider';
import { keyedOptions, ProviderRegistration } from './provider-registration';

/** What a news provider may be built from; the replay wire is built by the news module. */
export interface NewsProviderDependencies {
  http: HttpService;
  vendors: VendorsConfig;
  now: () => Date;
  replay: NewsProvider;
  /** A ticker's company name, so a vendor searching by text finds articles naming the company. */
  companyName: (symbol: string) => Promise<string | null>;
}

/** Every value NEWS_PROVIDER accepts, each with its factory (docs/adding-a-provider.md). */
export const NEWS_PROVIDER_REGISTRY = {
  replay: { create: ({ replay }) => replay },
  newsapi: {
    apiKeyVariable: 'NEWS_API_KEY',
    create: ({ http, vendors, companyName }) =>
      new NewsApiNewsProvider(http, { ...keyedOptions(vendors.newsApi), companyName }),
  },
  finnhub: {
    apiKeyVariable: 'FINNHUB_API_KEY',
    create: ({ http, vendors, now }) => new FinnhubNewsProvider(http, keyedOptions(vendors.finnhub), now),
  },
} satisfies Record<string, ProviderRegistration<NewsProviderDependencies, NewsProvider>>;

export type NewsProviderName = keyof typeof NEWS_PROVIDER_REGISTRY;

export const NEWS_PROVIDERS = Object.keys(NEWS_PROVIDER_REGISTRY) as NewsProviderName[];

/** Social sentiment comes from Finnhub alone: available whenever its key is set, whatever NEWS_PROVIDER says. */
export function createSocialSentimentProvider({
  http,
  vendors,
  now,
}: Pick<NewsProviderDependencies, 'http' | 'vendors' | 'now'>): SocialSentimentProvider | null {
  const { apiKey, baseUrl } = vendors.finnhub;
  return apiKey ? new FinnhubNewsProvider(http, { apiKey, baseUrl }, now) : null;
}
