import { Injectable } from '@nestjs/common';
import { CountedLru } from '../../common/metrics/cache-counters';
import { TimeSlices } from '../../common/time/time-slices';
import { ErrorDetail } from '../../common/errors/error-details';
import { NotFoundError, ProviderUnavailableError } from '../../common/errors/domain-errors';
import { FieldProblem, FieldProblems } from '../../common/errors/field-problems';
import { normalizeSymbol } from '../market';
import { NewsClient } from './news.client';
import { ExplainedSentiment, NewsItem, NewsMention, NewsQuery } from './news.types';
import { NewsFilter, ProviderArticle } from '../../integrations/vendors';
import { toArticle } from './providers/replay/replay-news.provider';
import { MarketWire } from './providers/replay/market-wire.service';
import { SentimentEngine } from './sentiment/sentiment.engine';
import { SentimentResult } from './sentiment/sentiment.label';

/** Articles asked of the provider whatever the limit, so filters have a pool and caches are shared. */
export const PROVIDER_POOL_SIZE = 50;
export const MAX_SENTIMENT_TEXT_LENGTH = 5_000;
/** Articles whose sentiment is kept: a feed is asked for again and again, its articles rarely change. */
const SCORED_ARTICLES = 5_000;
/** How many features an explanation lists. */
export const EXPLANATION_FEATURES = 8;
/** How long scoring stories may hold the event loop before letting requests in. */
const SCORING_SLICE_MS = 10;

/**
 * News for both path families (/market/news and /news): asks the configured provider, scores
 * every article with the sentiment engine, filters, orders newest first and cuts to the limit.
 */
@Injectable()
export class NewsService {
  /** The engine's score of each recent article by url, with the text it scored (an edited article is scored again). */
  private readonly articleScores = new CountedLru<string, ScoredText>('news-article-scores', {
    max: SCORED_ARTICLES,
  });

  /**
   * The page of a frozen pool (the replay's answer while the wire has not published, a cached
   * local answer) is kept with that pool and handed back frozen: asked again, the usual read, it
   * costs a lookup. A pool's pages differ only by limit and sentiment (its window is the
   * provider's), so they are few, and they go with the pool.
   */
  private readonly pages = new WeakMap<readonly ProviderArticle[], Map<string, NewsItem[]>>();

  constructor(
    private readonly client: NewsClient,
    private readonly wire: MarketWire,
    private readonly engine: SentimentEngine,
  ) {}

  /** Latest news, optionally about one symbol, matching keywords, a sentiment or a time window. */
  async latest(query: NewsQuery, limit: number): Promise<NewsItem[]> {
    const filter = toFilter(query);
    const articles = await this.client.latest(filter, PROVIDER_POOL_SIZE).catch((error: unknown) => {
      throw new ProviderUnavailableError(
        ErrorDetail.newsRetrievalFailed(this.client.provider.configurationVariable),
        { cause: error },
      );
    });
    return this.present(articles, limit, { ...filter, sentiment: query.sentiment });
  }

  async search(query: string, limit: number): Promise<NewsItem[]> {
    const articles = await this.client.search(query.trim(), PROVIDER_POOL_SIZE).catch((error: unknown) => {
      throw new ProviderUnavailableError(
        ErrorDetail.newsSearchFailed(this.client.provider.configurationVariable),
        { cause: error },
      );
    });
    return this.present(articles, limit, {});
  }

  /** News about one stock; a blank symbol has none (rather than falling back to the general feed). */
  async forStock(symbol: string, limit: number): Promise<NewsItem[]> {
    const normalized = normalizeSymbol(symbol);
    return normalized ? this.latest({ symbol: normalized }, limit) : [];
  }

  /** A market wire story by id (its stable url), whichever provider is configured. */
  async item(id: string): Promise<NewsItem> {
    const story = await this.wire.story(id);
    if (!story) throw new NotFoundError(ErrorDetail.newsItemNotFound);
    return this.scored(toArticle(story));
  }

  /**
   * The market wire's stories published by now in its recent sessions and after `after` (an ISO
   * instant; every one without it), each with the companies it mentions and its sentiment, newest
   * first: what the market graph links to companies. Only those stories are scored and copied, so
   * asking for what is new since the last look costs next to nothing when nothing is. The first
   * look scores every recent story (2,630, most of a second of CPU), so it is scored in slices that
   * let requests in between.
   */
  async recentMentions(after = ''): Promise<NewsMention[]> {
    const stories = await this.wire.recentStories();
    const newer = stories.findIndex((story) => story.publishedAt <= after);
    const mentions: NewsMention[] = [];
    const slices = new TimeSlices(SCORING_SLICE_MS);
    for (const story of newer < 0 ? stories : stories.slice(0, newer)) {
      if (slices.spent()) await slices.next();
      const { sentiment, sentimentScore } = this.scored(toArticle(story));
      const { url, title, publishedAt, symbols } = story;
      mentions.push({ url, title, publishedAt, sentiment, sentimentScore, symbols });
    }
    return mentions;
  }

  /** Scores clients' own texts with the same engine, in order, with the features behind each on request. */
  scoreTexts(texts: unknown[], explain = false): ExplainedSentiment[] {
    const problems = texts.flatMap((text, index): FieldProblem[] => {
      const path = ['texts', index];
      if (typeof text !== 'string') return [{ path, type: 'string_type' }];
      if (text.length <= MAX_SENTIMENT_TEXT_LENGTH) return [];
      return [{ path, type: 'string_too_long', ctx: { max_length: MAX_SENTIMENT_TEXT_LENGTH } }];
    });
    if (problems.length > 0) throw new FieldProblems(problems);
    return (texts as string[]).map((text) =>
      explain
        ? { ...this.engine.score(text), explanation: this.engine.explain(text, EXPLANATION_FEATURES) }
        : this.engine.score(text),
    );
  }

  private present(
    articles: ProviderArticle[],
    limit: number,
    filter: Pick<NewsFilter, 'from' | 'to'> & Pick<NewsQuery, 'sentiment'>,
  ): NewsItem[] {
    if (!Object.isFrozen(articles)) return this.page(articles, limit, filter);
    let pages = this.pages.get(articles);
    if (!pages) {
      pages = new Map();
      this.pages.set(articles, pages);
    }
    const key = JSON.stringify([limit, filter.sentiment, filter.from, filter.to]);
    let page = pages.get(key);
    if (!page) {
      page = Object.freeze(
        this.page(articles, limit, filter).map((item) => Object.freeze(item)),
      ) as NewsItem[];
      pages.set(key, page);
    }
    return page;
  }

  /**
   * Ordered newest first before scoring (a stable sort, as before: the order never depended on the
   * score), so only the articles that make the page are scored and copied, not the whole pool.
   */
  private page(
    articles: ProviderArticle[],
    limit: number,
    filter: Pick<NewsFilter, 'from' | 'to'> & Pick<NewsQuery, 'sentiment'>,
  ): NewsItem[] {
    const seen = new Set<string>();
    const candidates = articles.filter((article) => {
      if (seen.has(article.url)) return false;
      seen.add(article.url);
      return (
        (!filter.from || article.publishedAt >= filter.from) &&
        (!filter.to || article.publishedAt <= filter.to)
      );
    });
    candidates.sort((a, b) => (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : 0));
    const items: NewsItem[] = [];
    for (const article of candidates) {
      if (items.length >= limit) break;
      const item = this.scored(article);
      if (!filter.sentiment || item.sentiment === filter.sentiment) items.push(item);
    }
    return items;
  }

  private scored(article: ProviderArticle): NewsItem {
    const { title, description } = article;
    const earlier = this.articleScores.get(article.url);
    if (earlier && earlier.title === title && earlier.description === description) {
      return { ...article, ...earlier.score };
    }
    const score = this.engine.scoreArticle(title, description);
    this.articleScores.set(article.url, { title, description, score });
    return { ...article, ...score };
  }
}

interface ScoredText {
  title: string;
  description: ProviderArticle['description'];
  score: SentimentResult;
}

function toFilter(query: NewsQuery): NewsFilter {
  const from = query.from ? instant(query.from, 'start') : undefined;
  const to = query.to ? instant(query.to, 'end') : undefined;
  if (from && to && from > to) {
    throw FieldProblems.invalid(['from'], 'from must not be after to');
  }
  const keywords = query.keywords?.trim();
  return {
    ...(query.symbol ? { symbol: normalizeSymbol(query.symbol) } : {}),
    ...(keywords ? { keywords } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

/** A date means its whole UTC day; an instant is taken as given. */
function instant(value: string, edge: 'start' | 'end'): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return edge === 'start' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`;
  }
  return new Date(value).toISOString();
}
