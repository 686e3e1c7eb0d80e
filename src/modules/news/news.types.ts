import type { ProviderArticle } from '../../integrations/vendors';
import type { SentimentLabel, SentimentResult } from './sentiment/sentiment.label';
import type { FeatureContribution } from './sentiment/sentiment.model';

/** The spec's NewsItem: an article with the sentiment our engine computed from its text. */
export type NewsItem = ProviderArticle & SentimentResult;

/** A scored text and, when asked for, the features that moved its score most. */
export interface ExplainedSentiment extends SentimentResult {
  explanation?: FeatureContribution[];
}

export interface NewsQuery {
  symbol?: string;
  keywords?: string;
  sentiment?: SentimentLabel;
  /** YYYY-MM-DD (from the start of that UTC day) or an ISO instant. */
  from?: string;
  /** YYYY-MM-DD (to the end of that UTC day) or an ISO instant. */
  to?: string;
}

/** A news item with the companies it is about, as the market graph links them. */
export interface NewsMention extends SentimentResult {
  url: string;
  title: string;
  /** ISO instant. */
  publishedAt: string;
  symbols: string[];
}
