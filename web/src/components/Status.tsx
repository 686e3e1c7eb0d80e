import { ApiError } from '../api';

/** Loading or the error of a query; an outage gets a retry button. */
export function QueryStatus({ error, retry }: { error: unknown; retry: () => void }) {
  if (!error) return <p className="loading">Loading…</p>;
  const failure = error instanceof ApiError ? error : null;
  const retriable = failure === null || failure.status === 0 || failure.status >= 500;
  return (
    <div role="alert" className="banner error">
      <span>{failure?.message ?? 'Something went wrong.'}</span>
      {retriable && (
        <button type="button" onClick={retry}>
          Retry
        </button>
      )}
    </div>
  );
}
