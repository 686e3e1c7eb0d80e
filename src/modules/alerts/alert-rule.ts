import { AlertKind, AlertStatus, NewsSentiment, RearmPolicy } from './alert-fields';

/** The thresholds of a rule; which are set depends on its kind (see ALERT_KIND_FIELDS). */
export interface AlertThresholds {
  price?: number;
  percent?: number;
  sentiment?: NewsSentiment;
  min_score?: number;
  window_days?: number;
  delta?: number;
}

export interface AlertRule {
  id: number;
  userId: number;
  kind: AlertKind;
  /** A normalized ticker, "portfolio", or null for kinds that watch no one symbol. */
  symbol: string | null;
  thresholds: AlertThresholds;
  status: AlertStatus;
  rearm: RearmPolicy;
  rearmMinutes: number | null;
  /** Counts the armings: a rule fires at most once per arming. */
  arming: number;
  armedAt: Date;
  /** drawdown: the highest value seen since armed. */
  peak: number | null;
  /** sentiment_shift: the average sentiment when armed. */
  baseline: number | null;
  triggeredAt: Date | null;
  createdAt: Date;
  updatedAt: Date | null;
}

export interface NewAlertRule {
  kind: AlertKind;
  symbol: string | null;
  thresholds: AlertThresholds;
  rearm: RearmPolicy;
  rearmMinutes: number | null;
}

export interface AlertRuleChanges {
  thresholds?: AlertThresholds;
  rearm?: RearmPolicy;
  rearmMinutes?: number | null;
  status?: 'active' | 'paused';
}
