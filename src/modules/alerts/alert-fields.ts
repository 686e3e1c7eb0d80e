/** What a rule watches, each with its own fields. */
export const ALERT_KINDS = [
  'price_above',
  'price_below',
  'day_change',
  'drawdown',
  'news',
  'sentiment_shift',
  'risk_level',
  'watchlist_move',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const ALERT_STATUSES = ['active', 'triggered', 'paused'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const REARM_POLICIES = ['never', 'next_session', 'after_minutes'] as const;
export type RearmPolicy = (typeof REARM_POLICIES)[number];

export const NEWS_SENTIMENTS = ['positive', 'negative'] as const;
export type NewsSentiment = (typeof NEWS_SENTIMENTS)[number];

/** The target of a day_change or drawdown rule that watches the whole portfolio. */
export const PORTFOLIO_TARGET = 'portfolio';

/** The request fields that depend on the rule's kind. */
export type AlertField = 'symbol' | 'price' | 'percent' | 'sentiment' | 'min_score' | 'window_days' | 'delta';
export const THRESHOLD_FIELDS: readonly AlertField[] = [
  'price',
  'percent',
  'sentiment',
  'min_score',
  'window_days',
  'delta',
];

interface KindFields {
  required: readonly AlertField[];
  optional: readonly AlertField[];
}

/** Which fields each kind requires and which it accepts; any other of them is refused. */
export const ALERT_KIND_FIELDS: Record<AlertKind, KindFields> = {
  price_above: { required: ['symbol', 'price'], optional: [] },
  price_below: { required: ['symbol', 'price'], optional: [] },
  day_change: { required: ['symbol', 'percent'], optional: [] },
  drawdown: { required: ['symbol', 'percent'], optional: [] },
  news: { required: ['symbol'], optional: ['sentiment', 'min_score'] },
  sentiment_shift: { required: ['symbol', 'window_days', 'delta'], optional: [] },
  risk_level: { required: [], optional: [] },
  watchlist_move: { required: ['percent'], optional: [] },
};

/** Kinds whose symbol may be "portfolio". */
export const PORTFOLIO_KINDS: readonly AlertKind[] = ['day_change', 'drawdown'];

function fieldsOf(kind: unknown): KindFields | null {
  return Object.prototype.hasOwnProperty.call(ALERT_KIND_FIELDS, kind as string)
    ? ALERT_KIND_FIELDS[kind as AlertKind]
    : null;
}

export function requiresAlertField(kind: unknown, field: AlertField): boolean {
  return fieldsOf(kind)?.required.includes(field) ?? false;
}

export function acceptsAlertField(kind: unknown, field: AlertField): boolean {
  const fields = fieldsOf(kind);
  return !fields || fields.required.includes(field) || fields.optional.includes(field);
}

export const MAX_ALERT_PRICE = 1_000_000_000;
export const MAX_SENTIMENT_WINDOW_DAYS = 90;
/** Sentiment scores run from -1 to 1, so an average cannot move by more than 2. */
export const MAX_SENTIMENT_DELTA = 2;
export const MAX_REARM_MINUTES = 10_080;
export const MAX_RULES_PER_USER = 100;
