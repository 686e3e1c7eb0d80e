import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { newsConfig } from '../../config/news.config';
import { NewsFilter, NewsProvider, ProviderArticle, ProviderCallGateway } from '../../integrations/vendors';

/** The configured news provider, chosen by NEWS_PROVIDER. */
export const NEWS_PROVIDER = Symbol('NEWS_PROVIDER');

/**
 * The provider behind the market layer's gateway: vendor answers are cached (searches 5 minutes,
 * other news 60 s by default), identical concurrent calls share one request, and requests to a
 * vendor are paced (with Finnhub's pace shared with market data, as the key is). The local wire
 * is memoized per session by MarketWire and answers directly.
 */
@Injectable()
export class NewsClient {
  constructor(
    @Inject(NEWS_PROVIDER) readonly provider: NewsProvider,
    private readonly gateway: ProviderCallGateway,
    @Inject(newsConfig.KEY) private readonly config: ConfigType<typeof newsConfig>,
  ) {}

  latest(filter: NewsFilter, limit: number): Promise<ProviderArticle[]> {
    if (this.provider.local) return this.provider.latest(filter, limit);
    return this.gateway.call({
      provider: this.provider.name,
      kind: 'news-latest',
      key: JSON.stringify([filter.symbol, filter.keywords, filter.from, filter.to, limit]),
      ttlMs: this.config.newsTtlMs,
      minIntervalMs: this.config.minIntervalMs,
      fetch: () => this.provider.latest(filter, limit),
    });
  }

  search(query: string, limit: number): Promise<ProviderArticle[]> {
    if (this.provider.local) return this.provider.search(query, limit);
    return this.gateway.call({
      provider: this.provider.name,
      kind: 'news-search',
      key: JSON.stringify([query.toLowerCase(), limit]),
      ttlMs: this.config.searchTtlMs,
      minIntervalMs: this.config.minIntervalMs,
      fetch: () => this.provider.search(query, limit),
    });
  }
}
