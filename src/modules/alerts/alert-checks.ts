import { AlertRule } from './alert-rule';

/** What a rule saw that made it fire: the notification's title, text and figures. */
export interface Firing {
  title: string;
  text: string;
  data: Record<string, unknown>;
}

/** A quote as the checks need it. */
export interface QuoteFigures {
  symbol: string;
  price: number;
  changePercent: number;
  asOf: string;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const signed = (value: number) => `${value >= 0 ? '+' : ''}${round2(value)}%`;

export function checkPrice(rule: AlertRule, quote: QuoteFigures): Firing | null {
  const threshold = rule.thresholds.price!;
  const above = rule.kind === 'price_above';
  if (above ? quote.price < threshold : quote.price > threshold) return null;
  return {
    title: `${quote.symbol} ${above ? 'rose above' : 'fell below'} ${threshold}`,
    text: `${quote.symbol} is at ${round2(quote.price)} USD, ${above ? 'at or above' : 'at or below'} your alert at ${threshold} USD.`,
    data: { symbol: quote.symbol, price: quote.price, threshold, as_of: quote.asOf, source: 'market data' },
  };
}

/** day_change: the absolute move since the previous close reached the threshold. */
export function checkDayChange(
  rule: AlertRule,
  figures: { label: string; changePercent: number; asOf: string; amount?: number },
): Firing | null {
  const threshold = rule.thresholds.percent!;
  if (Math.abs(figures.changePercent) < threshold) return null;
  return {
    title: `${figures.label} moved ${signed(figures.changePercent)} today`,
    text: `${figures.label} moved ${signed(figures.changePercent)} since the previous close (your alert: ${threshold}%).`,
    data: {
      symbol: rule.symbol,
      change_percent: figures.changePercent,
      threshold_percent: threshold,
      ...(figures.amount === undefined ? {} : { value: figures.amount }),
      as_of: figures.asOf,
      source: rule.symbol === 'portfolio' ? 'portfolio summary' : 'market data',
    },
  };
}

/** drawdown: the fall from the running peak since armed; `peak` already includes `value`. */
export function checkDrawdown(
  rule: AlertRule,
  figures: { label: string; value: number; peak: number; asOf: string },
): Firing | null {
  const threshold = rule.thresholds.percent!;
  if (figures.peak <= 0) return null;
  const drawdown = ((figures.peak - figures.value) / figures.peak) * 100;
  if (drawdown < threshold) return null;
  return {
    title: `${figures.label} is ${round2(drawdown)}% below its peak`,
    text: `${figures.label} fell ${round2(drawdown)}% from its peak since the alert was armed (your alert: ${threshold}%).`,
    data: {
      symbol: rule.symbol,
      drawdown_percent: drawdown,
      threshold_percent: threshold,
      peak: figures.peak,
      value: figures.value,
      as_of: figures.asOf,
      source: rule.symbol === 'portfolio' ? 'portfolio summary' : 'market data',
    },
  };
}

/** watchlist_move: the watchlist symbols that moved at least the threshold today. */
export function checkWatchlist(rule: AlertRule, quotes: readonly QuoteFigures[]): Firing | null {
  const threshold = rule.thresholds.percent!;
  const movers = quotes.filter((quote) => Math.abs(quote.changePercent) >= threshold);
  if (movers.length === 0) return null;
  const listed = movers.map((quote) => `${quote.symbol} ${signed(quote.changePercent)}`).join(', ');
  return {
    title: `Watchlist: ${listed}`,
    text: `On your watchlist, ${listed} today (your alert: ${threshold}%).`,
    data: {
      movers: movers.map((quote) => ({
        symbol: quote.symbol,
        change_percent: quote.changePercent,
        price: quote.price,
        as_of: quote.asOf,
      })),
      threshold_percent: threshold,
      source: 'market data',
    },
  };
}

/** A news item as the checks need it. */
export interface NewsFigures {
  title: string;
  url: string;
  source: string;
  publishedAt: string;
  sentiment: string;
  sentimentScore: number;
}

/** news: the newest item on the symbol published since armed, of the sentiment and strength asked for. */
export function checkNews(rule: AlertRule, items: readonly NewsFigures[]): Firing | null {
  const { sentiment, min_score: minScore } = rule.thresholds;
  const armedAt = rule.armedAt.getTime();
  const item = items.find(
    (candidate) =>
      Date.parse(candidate.publishedAt) > armedAt &&
      (sentiment === undefined || candidate.sentiment === sentiment) &&
      (minScore === undefined || Math.abs(candidate.sentimentScore) >= minScore),
  );
  if (!item) return null;
  return {
    title: `News on ${rule.symbol}: ${item.title}`.slice(0, 200),
    text: `${item.source}: ${item.title} (${item.sentiment}, ${round2(item.sentimentScore)}).`.slice(0, 2000),
    data: {
      symbol: rule.symbol,
      headline: item.title,
      url: item.url,
      published_at: item.publishedAt,
      sentiment: item.sentiment,
      sentiment_score: item.sentimentScore,
      source: item.source,
    },
  };
}

/** The mean sentiment score of the items published in the `windowDays` before `now`; null with none. */
export function averageSentiment(
  items: readonly NewsFigures[],
  now: Date,
  windowDays: number,
): number | null {
  const from = now.getTime() - windowDays * 86_400_000;
  const scores = items
    .filter((item) => {
      const at = Date.parse(item.publishedAt);
      return at > from && at <= now.getTime();
    })
    .map((item) => item.sentimentScore);
  return scores.length === 0 ? null : scores.reduce((sum, score) => sum + score, 0) / scores.length;
}

export function checkSentimentShift(rule: AlertRule, average: number, baseline: number): Firing | null {
  const delta = rule.thresholds.delta!;
  const moved = average - baseline;
  if (Math.abs(moved) < delta) return null;
  return {
    title: `News sentiment on ${rule.symbol} ${moved > 0 ? 'improved' : 'worsened'} by ${round2(Math.abs(moved))}`,
    text: `The average news sentiment on ${rule.symbol} over ${rule.thresholds.window_days} days moved from ${round2(baseline)} to ${round2(average)} (your alert: ${delta}).`,
    data: {
      symbol: rule.symbol,
      baseline,
      average,
      delta: moved,
      window_days: rule.thresholds.window_days,
      source: 'news sentiment',
    },
  };
}

export function checkRiskLevel(
  riskLevel: string | null,
  riskTolerance: string | null,
  matchesPreferences: boolean | null,
): Firing | null {
  if (matchesPreferences !== false) return null;
  return {
    title: `Portfolio risk is ${riskLevel}, your tolerance is ${riskTolerance}`,
    text: `Your portfolio's risk level (${riskLevel}) moved away from your risk tolerance (${riskTolerance}).`,
    data: { risk_level: riskLevel, risk_tolerance: riskTolerance, source: 'portfolio risk metrics' },
  };
}
