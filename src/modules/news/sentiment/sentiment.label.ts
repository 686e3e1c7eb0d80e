export type SentimentLabel = 'positive' | 'negative' | 'neutral';

export interface SentimentResult {
  sentiment: SentimentLabel;
  sentimentScore: number;
}

/** The spec's bands: at or above 0.1 is positive, at or below -0.1 negative, neutral between. */
export const POSITIVE_THRESHOLD = 0.1;
export const NEGATIVE_THRESHOLD = -0.1;

export function sentimentLabel(score: number): SentimentLabel {
  if (score >= POSITIVE_THRESHOLD) return 'positive';
  if (score <= NEGATIVE_THRESHOLD) return 'negative';
  return 'neutral';
}

/** Rounds the score to 4 decimals first, so that the label always agrees with the number shown. */
export function toSentimentResult(score: number): SentimentResult {
  const sentimentScore = Math.round(Math.min(1, Math.max(-1, score)) * 10_000) / 10_000 || 0;
  return { sentiment: sentimentLabel(sentimentScore), sentimentScore };
}
