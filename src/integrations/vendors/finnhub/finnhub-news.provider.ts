import { HttpService } from '@nestjs/axios';
import { finnhubGet } from './finnhub-get';
import { KeyedVendorOptions } from '../http/per-symbol-vendor.provider';
import { ProviderResponseError } from '../provider-errors';
import { newYorkTime } from '../../../common/time/new-york-time';
import { matchesAllTerms, matchesKeywords } from '../news-text-match';
import {
  NewsFilter,
  NewsProvider,
  ProviderArticle,
  SocialSentiment,
  SocialSentimentProvider,
} from '../news.provider';

const PROVIDER = 'finnhub';
/** Company news is asked for a window; without `from`, the last week. */
const DEFAULT_WINDOW_DAYS = 7;
const MS_PER_DAY = 86_400_000;

interface FinnhubArticle {
  category?: string;
  datetime?: number;
  headline?: string;
  id?: number;
  related?: string;
  source?: string;
  summary?: string;
  url?: string;
}

interface FinnhubSocialBucket {
  atTime?: string;
  mention?: number;
  positiveMention?: number;
  negativeMention?: number;
  score?: number;
}

interface FinnhubSocialBody {
  symbol?: string;
  data?: FinnhubSocialBucket[];
}

/**
 * Finnhub (finnhub.io/docs/api): general market news and company news, keyed by FINNHUB_API_KEY.
 * Finnhub has no news search: searches and keyword filters run over the latest general news (or
 * the company's news) on our side.
 */
export class FinnhubNewsProvider extends NewsProvider implements SocialSentimentProvider {
  readonly name = PROVIDER;
  readonly configurationVariable = 'FINNHUB_API_KEY';
  readonly local = false;

  constructor(
    private readonly http: HttpService,
    private readonly options: KeyedVendorOptions,
    private readonly now: () => Date,
  ) {
    super();
  }

  async latest(filter: NewsFilter, limit: number): Promise<ProviderArticle[]> {
    const articles = filter.symbol ? await this.companyNews(filter) : await this.generalNews();
    return articles
      .filter((article) => (filter.keywords ? matchesKeywords(searchable(article), filter.keywords) : true))
      .slice(0, limit);
  }

  async search(query: string, limit: number): Promise<ProviderArticle[]> {
    return (await this.generalNews())
      .filter((article) => matchesAllTerms(searchable(article), query))
      .slice(0, limit);
  }

  async socialSentiment(symbol: string, from: string, to: string): Promise<SocialSentiment> {
    const body = await this.get<FinnhubSocialBody>('/api/v1/stock/social-sentiment', { symbol, from, to });
    const buckets = (body.data ?? []).filter((bucket) => typeof bucket.mention === 'number');
    const mentions = buckets.reduce((sum, bucket) => sum + (bucket.mention ?? 0), 0);
    const weighted = buckets.reduce((sum, bucket) => sum + (bucket.score ?? 0) * (bucket.mention ?? 0), 0);
    const times = buckets
      .map((bucket) => (bucket.atTime ? Date.parse(`${bucket.atTime.replace(' ', 'T')}Z`) : Number.NaN))
      .filter((time) => !Number.isNaN(time))
      .sort((a, b) => a - b);
    return {
      symbol,
      mentions,
      positiveMentions: buckets.reduce((sum, bucket) => sum + (bucket.positiveMention ?? 0), 0),
      negativeMentions: buckets.reduce((sum, bucket) => sum + (bucket.negativeMention ?? 0), 0),
      score: mentions > 0 ? Math.max(-1, Math.min(1, weighted / mentions)) : 0,
      from: times.length > 0 ? new Date(times[0]).toISOString() : null,
      to: times.length > 0 ? new Date(times[times.length - 1]).toISOString() : null,
    };
  }

  private async generalNews(): Promise<ProviderArticle[]> {
    return toArticles(await this.get<FinnhubArticle[]>('/api/v1/news', { category: 'general' }));
  }

  private async companyNews(filter: NewsFilter): Promise<ProviderArticle[]> {
    const to = filter.to ? new Date(filter.to) : this.now();
    const from = filter.from
      ? new Date(filter.from)
      : new Date(to.getTime() - DEFAULT_WINDOW_DAYS * MS_PER_DAY);
    const body = await this.get<FinnhubArticle[]>('/api/v1/company-news', {
      symbol: filter.symbol!,
      from: newYorkTime(from).date,
      to: newYorkTime(to).date,
    });
    return toArticles(body);
  }

  private get<T>(path: string, params: Record<string, string | number>): Promise<T> {
    return finnhubGet<T>(this.http, this.options, path, params);
  }
}

function toArticles(body: unknown): ProviderArticle[] {
  if (!Array.isArray(body)) throw new ProviderResponseError(PROVIDER, 'news is not a list');
  return (body as FinnhubArticle[])
    .flatMap((article): ProviderArticle[] => {
      const title = article.headline?.trim();
      const url = article.url?.trim();
      if (!title || !url || typeof article.datetime !== 'number' || article.datetime <= 0) return [];
      return [
        {
          title,
          description: article.summary?.trim() ?? '',
          url,
          source: article.source?.trim() || hostOf(url),
          publishedAt: new Date(article.datetime * 1000).toISOString(),
        },
      ];
    })
    .sort((a, b) => (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : 0));
}

function searchable(article: ProviderArticle): string {
  return `${article.title} ${article.description}`;
}

/** The site of a URL, for an article whose publisher is not named; empty for a malformed URL. */
function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).hostname : '';
}
