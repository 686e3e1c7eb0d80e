import { notificationEvents } from '@investment-assistant/client';
import { QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../api';
import { Link } from '../router';

/** Every query of the inbox starts with this key: a new notification refreshes them all. */
export const NOTIFICATIONS_KEY = ['notifications'] as const;
/** The alert rules: a notification means one of them has just fired. */
export const ALERT_RULES_KEY = ['alert-rules'] as const;
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

/**
 * The nav's link to the inbox with the number of unread notifications, kept live; each new
 * notification's title is also announced to screen readers.
 */
export function InboxLink() {
  const queryClient = useQueryClient();
  const [announcement, setAnnouncement] = useState('');
  useEffect(
    () => followNotifications(queryClient, (title) => setAnnouncement(`New notification: ${title}`)),
    [queryClient],
  );
  const unread = useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'unread-count'],
    queryFn: async () =>
      (await unwrap(api.GET('/api/v1/notifications', { params: { query: { limit: 1 } } }))).unread_count,
  });
  const count = unread.data ?? 0;
  return (
    <>
      <Link to="/inbox">
        Inbox
        {count > 0 && (
          <>
            {' '}
            <span className="count" aria-hidden="true">
              {count}
            </span>
            <span className="visually-hidden">({count} unread)</span>
          </>
        )}
      </Link>
      <span role="status" className="visually-hidden" data-testid="notification-announcement">
        {announcement}
      </span>
    </>
  );
}

/**
 * Holds the notification stream open while signed in: each notification, and each opening of the
 * stream (which starts from now), refreshes the inbox and the rules. A dropped stream is reopened with
 * `Last-Event-ID`, after a wait that doubles up to 30 s. Returns the function that closes it.
 */
function followNotifications(queryClient: QueryClient, announce: (title: string) => void): () => void {
  const controller = new AbortController();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
    void queryClient.invalidateQueries({ queryKey: ALERT_RULES_KEY });
  };
  const follow = async () => {
    let lastId: string | undefined;
    let wait = FIRST_RETRY_MS;
    while (!controller.signal.aborted) {
      try {
        const { response } = await api.GET('/api/v1/notifications/stream', {
          params: { header: lastId === undefined ? {} : { 'Last-Event-ID': lastId } },
          parseAs: 'stream',
          signal: controller.signal,
        });
        if (response.ok) {
          // What arrived before the stream opened is only in the inbox.
          refresh();
          wait = FIRST_RETRY_MS;
          for await (const { id, notification } of notificationEvents(response)) {
            lastId = String(id);
            refresh();
            announce(notification.title);
          }
        } else {
          await response.body?.cancel();
        }
      } catch {
        // Aborted on sign-out, or the service is unreachable: the loop decides.
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, LONGEST_RETRY_MS);
    }
  };
  void follow();
  return () => controller.abort();
}
