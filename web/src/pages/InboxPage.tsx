import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api';
import { NOTIFICATIONS_KEY } from '../components/InboxLink';
import { QueryStatus } from '../components/Status';
import { humanize } from '../preferences';
import { Link } from '../router';

const PAGE_SIZE = 20;

/** The notifications the alerts and the daily briefing wrote, newest first; new ones appear live. */
export function InboxPage() {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [skip, setSkip] = useState(0);
  const queryClient = useQueryClient();
  const inbox = useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'list', unreadOnly, skip],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/notifications', {
          params: { query: { unread_only: unreadOnly, skip, limit: PAGE_SIZE } },
        }),
      ),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
  const markRead = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.POST('/api/v1/notifications/{id}/read', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const markAllRead = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/notifications/read-all')),
    onSuccess: refresh,
  });
  const failure = markRead.error ?? markAllRead.error;

  return (
    <>
      <h1>Inbox</h1>
      <p>
        Your <Link to="/alerts">alert rules</Link> write here when they fire, and so does the{' '}
        <Link to="/briefing">daily briefing</Link>.
      </p>
      <div className="actions">
        <label className="choice">
          <input
            type="checkbox"
            checked={unreadOnly}
            onChange={(event) => {
              setUnreadOnly(event.target.checked);
              setSkip(0);
            }}
          />
          Unread only
        </label>
        <button
          type="button"
          className="secondary"
          onClick={() => markAllRead.mutate()}
          disabled={!inbox.data || inbox.data.unread_count === 0 || markAllRead.isPending}
        >
          Mark all read
        </button>
      </div>
      {failure && (
        <p role="alert" className="error">
          {failure.message}
        </p>
      )}
      {!inbox.data ? (
        <QueryStatus error={inbox.error} retry={() => void inbox.refetch()} />
      ) : inbox.data.items.length === 0 ? (
        <p>{unreadOnly ? 'Nothing unread.' : 'No notifications yet.'}</p>
      ) : (
        <>
          <p className="hint" data-testid="inbox-count">
            {inbox.data.unread_count} unread. Showing {skip + 1}–{skip + inbox.data.items.length} of{' '}
            {inbox.data.total}.
          </p>
          <ul className="inbox" aria-label="Notifications">
            {inbox.data.items.map((item) => (
              <li key={item.id} className={item.read_at ? 'read' : 'unread'}>
                <h2>
                  {!item.read_at && <span className="visually-hidden">Unread: </span>}
                  {item.title}
                </h2>
                <p>{item.text}</p>
                <small>
                  <span className="badge">{humanize(item.kind)}</span>{' '}
                  {new Date(item.created_at).toLocaleString('en-US')}
                  {typeof item.data.source === 'string' && ` · source: ${item.data.source}`}
                </small>{' '}
                {item.kind === 'briefing' && <Link to="/briefing">Read today’s briefing</Link>}
                {!item.read_at && (
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => markRead.mutate(item.id)}
                    aria-label={`Mark read: ${item.title}`}
                  >
                    Mark read
                  </button>
                )}
              </li>
            ))}
          </ul>
          <div className="actions">
            <button
              type="button"
              className="secondary"
              disabled={skip === 0}
              onClick={() => setSkip(Math.max(0, skip - PAGE_SIZE))}
            >
              Newer
            </button>
            <button
              type="button"
              className="secondary"
              disabled={skip + inbox.data.items.length >= inbox.data.total}
              onClick={() => setSkip(skip + PAGE_SIZE)}
            >
              Older
            </button>
          </div>
        </>
      )}
    </>
  );
}
