// The roles news adapters play. Adapters translate one vendor's API into these shapes and throw the
// market layer's provider errors (VendorUnavailableError is what the gateway backs off on);
// caching, pacing and single-flight live in front of them (NewsClient), sentiment after them.

/** An article as a provider tells it, before the service scores its sentiment. */
export interface ProviderArticle {
  title: string;
  description: string;
  url: string;
  /** Publisher name. */
  source: string;
  /** ISO instant (a string so cached copies survive JSON stores). */
  publishedAt: string;
}

export interface NewsFilter {
  /** Normalized ticker (AAPL, BRK.B). */
  symbol?: string;
  keywords?: string;
  /** ISO instants bounding publishedAt, inclusive. */
  from?: string;
  to?: string;
}

export abstract class NewsProvider {
  /** Pacing and cache keys are per provider name (shared with market data for the same vendor). */
  abstract readonly name: string;
  /** The variable an operator should check when this provider fails. */
  abstract readonly configurationVariable: string;
  /** Local providers are not paced. */
  abstract readonly local: boolean;

  /** Recent articles matching the filter, newest first, at most `limit`. */
  abstract latest(filter: NewsFilter, limit: number): Promise<ProviderArticle[]>;

  /** Articles matching a free-text query, newest first, at most `limit`. */
  abstract search(query: string, limit: number): Promise<ProviderArticle[]>;
}

/** Social-media sentiment of one symbol over a recent window (Finnhub's social sentiment). */
export interface SocialSentiment {
  symbol: string;
  mentions: number;
  positiveMentions: number;
  negativeMentions: number;
  /** Mention-weighted mean score in [-1, 1]; 0 without mentions. */
  score: number;
  /** ISO instant of the first and last hourly bucket counted, null without data. */
  from: string | null;
  to: string | null;
}

export abstract class SocialSentimentProvider {
  /** Pacing and cache keys are per provider name. */
  abstract readonly name: string;
  abstract socialSentiment(symbol: string, from: string, to: string): Promise<SocialSentiment>;
}
