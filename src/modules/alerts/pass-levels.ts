import { NewsFigures, QuoteFigures } from './alert-checks';
import { ANY_SENTIMENT, NewsLevel } from './alert-rules.repository';

/**
 * The levels of a symbol's news for the candidates query: per sentiment and over all, the newest item and
 * the strongest absolute score. A news rule armed after the newest item of its sentiment, or asking
 * for a score above the strongest, cannot fire (checkNews).
 */
export function newsLevels(symbol: string, items: readonly NewsFigures[]): NewsLevel[] {
  const levels = new Map<string, NewsLevel>();
  for (const item of items) {
    const latestMs = Date.parse(item.publishedAt);
    // An item without a readable date never fires a rule (checkNews compares it with the arming).
    if (Number.isNaN(latestMs)) continue;
    const strongestScore = Math.abs(item.sentimentScore);
    for (const sentiment of [ANY_SENTIMENT, item.sentiment]) {
      const level = levels.get(sentiment);
      if (!level) {
        levels.set(sentiment, { symbol, sentiment, latestMs, strongestScore });
      } else {
        level.latestMs = Math.max(level.latestMs, latestMs);
        level.strongestScore = Math.max(level.strongestScore, strongestScore);
      }
    }
  }
  return [...levels.values()];
}

/** The largest absolute move since the previous close among a watchlist's quotes; null with none. */
export function largestMove(quotes: readonly Pick<QuoteFigures, 'changePercent'>[]): number | null {
  if (quotes.length === 0) return null;
  return Math.max(...quotes.map((quote) => Math.abs(quote.changePercent)));
}
