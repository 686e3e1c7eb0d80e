import { HttpService } from '@nestjs/axios';
import { vendorGet } from '../http/vendor-http';
import { ProviderResponseError, VendorUnavailableError } from '../provider-errors';
import { keywordAlternatives } from '../news-text-match';
import { NewsFilter, NewsProvider, ProviderArticle } from '../news.provider';

const PROVIDER = 'newsapi';
/** NewsAPI's largest page. */
const MAX_PAGE_SIZE = 100;
/** Placeholder NewsAPI keeps in place of articles taken down by their publisher. */
const REMOVED = '[Removed]';

interface NewsApiArticle {
  source?: { id?: string | null; name?: string | null };
  title?: string | null;
  description?: string | null;
  url?: string | null;
  publishedAt?: string | null;
}

interface NewsApiBody {
  status?: 'ok' | 'error';
  code?: string;
  message?: string;
  articles?: NewsApiArticle[];
}

export interface NewsApiOptions {
  apiKey: string;
  baseUrl: string;
  /** Company name of a ticker, when known, so symbol news also finds articles naming the company. */
  companyName: (symbol: string) => Promise<string | null>;
}

/** NewsAPI.org (newsapi.org/docs), keyed by NEWS_API_KEY. */
export class NewsApiNewsProvider extends NewsProvider {
  readonly name = PROVIDER;
  readonly configurationVariable = 'NEWS_API_KEY';
  readonly local = false;

  constructor(
    private readonly http: HttpService,
    private readonly options: NewsApiOptions,
  ) {
    super();
  }

  async latest(filter: NewsFilter, limit: number): Promise<ProviderArticle[]> {
    const terms: string[] = [];
    if (filter.symbol) terms.push(await this.symbolQuery(filter.symbol));
    if (filter.keywords) terms.push(keywordsQuery(filter.keywords));
    if (terms.length === 0) {
      // Top headlines have no date window: the service filters them by from/to.
      return this.get('/v2/top-headlines', {
        country: 'us',
        category: 'business',
        pageSize: pageSize(limit),
      });
    }
    return this.everything(terms.map((term) => `(${term})`).join(' AND '), limit, filter);
  }

  search(query: string, limit: number): Promise<ProviderArticle[]> {
    return this.everything(query, limit, {});
  }

  private everything(
    q: string,
    limit: number,
    filter: Pick<NewsFilter, 'from' | 'to'>,
  ): Promise<ProviderArticle[]> {
    return this.get('/v2/everything', {
      q,
      language: 'en',
      sortBy: 'publishedAt',
      pageSize: pageSize(limit),
      ...(filter.from ? { from: filter.from } : {}),
      ...(filter.to ? { to: filter.to } : {}),
    });
  }

  private async symbolQuery(symbol: string): Promise<string> {
    const name = await this.options.companyName(symbol).catch(() => null);
    return name ? `${symbol} OR "${name.replaceAll('"', '')}"` : symbol;
  }

  private async get(path: string, params: Record<string, string | number>): Promise<ProviderArticle[]> {
    const { status, data } = await vendorGet<NewsApiBody>(
      this.http,
      PROVIDER,
      `${this.options.baseUrl}${path}`,
      {
        params,
        headers: { 'X-Api-Key': this.options.apiKey },
      },
    );
    if (status !== 200 || data?.status !== 'ok') {
      const reason = data && typeof data === 'object' ? `${data.code ?? ''}: ${data.message ?? ''}` : '';
      // NewsAPI also reports an exhausted quota in the body of other statuses.
      if (data?.code === 'rateLimited') throw new VendorUnavailableError(PROVIDER, reason, 60 * 60_000);
      throw new ProviderResponseError(PROVIDER, `HTTP ${status} ${reason}`.trim());
    }
    return (data.articles ?? []).flatMap(toArticle);
  }
}

function toArticle(article: NewsApiArticle): ProviderArticle[] {
  const title = article.title?.trim();
  const url = article.url?.trim();
  const publishedAt = article.publishedAt ? Date.parse(article.publishedAt) : Number.NaN;
  if (!title || title === REMOVED || !url || Number.isNaN(publishedAt)) return [];
  const description = article.description?.trim();
  return [
    {
      title,
      description: description && description !== REMOVED ? description : '',
      url,
      source: article.source?.name?.trim() || hostOf(url),
      publishedAt: new Date(publishedAt).toISOString(),
    },
  ];
}

/** Our comma-separated alternatives in NewsAPI's query language: words of one alternative all required. */
function keywordsQuery(keywords: string): string {
  return keywordAlternatives(keywords)
    .map((alternative) => `(${alternative.replaceAll('"', '').split(/\s+/).join(' AND ')})`)
    .join(' OR ');
}

function pageSize(limit: number): number {
  return Math.min(Math.max(limit, 1), MAX_PAGE_SIZE);
}

/** The site of a URL, for an article whose publisher is not named; empty for a malformed URL. */
function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).hostname : '';
}
