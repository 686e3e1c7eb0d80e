import { Injectable } from '@nestjs/common';
import { CountedLru } from '../../../../common/metrics/cache-counters';
import { newYorkTime } from '../../../../common/time/new-york-time';
import {
  matchesAllTerms,
  matchesKeywords,
  NewsFilter,
  NewsProvider,
  ProviderArticle,
} from '../../../../integrations/vendors';
import { WireStory } from './market-wire';
import { MarketWire } from './market-wire.service';

/** The offline default: the market wire written from the replayed sessions. */
@Injectable()
export class ReplayNewsProvider extends NewsProvider {
  readonly name = 'replay';
  readonly configurationVariable = 'NEWS_PROVIDER';
  readonly local = true;

  /**
   * The last answer to each filter and limit, with the wire's frozen list it was picked from: asked
   * again while that list holds (the usual news read, until the wire publishes), it is handed back
   * as it was, frozen, instead of being picked and copied anew.
   */
  private readonly answers = new CountedLru<
    string,
    { stories: readonly WireStory[]; articles: ProviderArticle[] }
  >('news-replay-answers', { max: 500 });

  /** The published stories of each symbol, newest first, by the wire's frozen list they come from. */
  private readonly bySymbol = new WeakMap<readonly WireStory[], Map<string, WireStory[]>>();

  constructor(private readonly wire: MarketWire) {
    super();
  }

  async latest(filter: NewsFilter, limit: number): Promise<ProviderArticle[]> {
    const until = filter.to ? newYorkTime(new Date(filter.to)).date : undefined;
    const recent = await this.wire.recentStories(until);
    const key = JSON.stringify([filter.symbol, filter.keywords, filter.from, filter.to, limit]);
    const earlier = this.answers.get(key);
    if (earlier?.stories === recent) return earlier.articles;
    const articles = this.picked(recent, filter, limit);
    if (Object.isFrozen(recent))
      this.answers.set(key, { stories: recent, articles: Object.freeze(articles) as ProviderArticle[] });
    return articles;
  }

  private picked(recent: readonly WireStory[], filter: NewsFilter, limit: number): ProviderArticle[] {
    const stories = filter.symbol ? this.storiesOf(recent, filter.symbol) : recent;
    // One pass that stops at the limit: the overview asks this for ten symbols per request.
    const articles: ProviderArticle[] = [];
    for (const story of stories) {
      if (articles.length >= limit) break;
      if (filter.keywords && !matchesKeywords(story.searchText, filter.keywords)) continue;
      // Company briefs are for readers who asked about the company.
      if (!story.featured && filter.symbol === undefined && filter.keywords === undefined) continue;
      if (filter.from && story.publishedAt < filter.from) continue;
      if (filter.to && story.publishedAt > filter.to) continue;
      articles.push(Object.freeze(toArticle(story)));
    }
    return articles;
  }

  /**
   * One symbol's stories, indexed once per frozen list of published stories: the overview asked
   * for ten symbols per request, and each ask scanned every recent story (a twelfth of its CPU).
   */
  private storiesOf(stories: readonly WireStory[], symbol: string): readonly WireStory[] {
    let index = this.bySymbol.get(stories);
    if (!index) {
      index = new Map();
      for (const story of stories) {
        for (const each of new Set(story.symbols)) {
          const list = index.get(each);
          if (list) list.push(story);
          else index.set(each, [story]);
        }
      }
      if (Object.isFrozen(stories)) this.bySymbol.set(stories, index);
    }
    return index.get(symbol) ?? [];
  }

  async search(query: string, limit: number): Promise<ProviderArticle[]> {
    const stories = await this.wire.recentStories();
    return stories
      .filter((story) => matchesAllTerms(story.searchText, query))
      .slice(0, limit)
      .map(toArticle);
  }
}

export function toArticle(story: WireStory): ProviderArticle {
  const { title, description, url, source, publishedAt } = story;
  return { title, description, url, source, publishedAt };
}
