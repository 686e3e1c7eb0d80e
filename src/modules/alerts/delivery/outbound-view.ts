/** What leaves the service of one notification, by the user's privacy_level. */
export interface OutboundNotification {
  id: number;
  kind: string;
  title: string;
  text?: string;
  data?: Record<string, unknown>;
  created_at: string;
  inbox_url: string;
}

export type PrivacyLevel = 'full' | 'limited' | 'minimal';

/** Keys whose values are amounts or holdings (money, prices, values): `limited` drops them. */
const AMOUNT_KEYS = new Set(['price', 'threshold', 'value', 'peak', 'amount', 'movers_price']);

function withoutAmounts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAmounts);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !AMOUNT_KEYS.has(key))
        .map(([key, inner]) => [key, withoutAmounts(inner)]),
    );
  return value;
}

/**
 * `full`: everything; `limited`: percentages and names but no amounts (the text, which quotes
 * prices, is left out); `minimal`: a title that names no figure and a link to the inbox.
 */
export function outboundView(
  notification: {
    id: number;
    kind: string;
    title: string;
    text: string;
    data: Record<string, unknown>;
    createdAt: Date;
  },
  privacy: PrivacyLevel,
  inboxUrl: string,
): OutboundNotification {
  const base = {
    id: notification.id,
    kind: notification.kind,
    created_at: notification.createdAt.toISOString(),
    inbox_url: inboxUrl,
  };
  if (privacy === 'minimal') return { ...base, title: 'You have a new alert' };
  if (privacy === 'limited')
    return {
      ...base,
      title: `New ${notification.kind.replace('_', ' ')} alert`,
      data: withoutAmounts(notification.data) as Record<string, unknown>,
    };
  return { ...base, title: notification.title, text: notification.text, data: notification.data };
}
