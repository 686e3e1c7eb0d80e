/** One message the service wrote to a user: what fired, in words and figures. */
export interface Notification {
  id: number;
  userId: number;
  ruleId: number | null;
  kind: string;
  title: string;
  text: string;
  data: Record<string, unknown>;
  createdAt: Date;
  readAt: Date | null;
}

export interface NotificationPage {
  items: Notification[];
  total: number;
  unread: number;
}

/** The channel on which a new notification is announced to every replica (PostgreSQL NOTIFY). */
export const NOTIFICATION_CHANNEL = 'notifications_created';
