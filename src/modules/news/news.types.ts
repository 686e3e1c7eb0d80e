import type { SentimentLabel } from './sentiment/sentiment.label';

/** The spec's NewsItem: an article with the sentiment our engine computed from its text. */
export interface NewsItem {
  title: string;
  description: string;
  url: string;
  source: string;
  publishedAt: string;
  sentiment: SentimentLabel;
  sentimentScore: number;
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
