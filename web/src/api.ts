import { AuthSession, createApiClient, isValidationError } from '@investment-assistant/client';
import type { HTTPError, HTTPValidationError } from '@investment-assistant/client';

/**
 * The one session of this tab: access token in memory, refresh token in sessionStorage, shared
 * with the other tabs over a BroadcastChannel, refreshed under a Web Lock.
 */
export const session = new AuthSession({
  baseUrl: '',
  storage: window.sessionStorage,
  channel: new BroadcastChannel('auth'),
  locks: navigator.locks,
});

/** The typed client over the page's own origin; every request goes through the session. */
export const api = createApiClient({ baseUrl: window.location.origin });
api.use(session.middleware());

/** An API answer that was not 2xx, with what the person should read. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: HTTPError | HTTPValidationError | undefined,
    readonly retryAfter: string | null,
  ) {
    super(describe(status, body, retryAfter));
  }

  /** The 422 messages by field name (the last element of `loc`). */
  get fieldErrors(): Record<string, string> {
    if (!this.body || !isValidationError(this.body)) return {};
    const fields: Record<string, string> = {};
    for (const issue of this.body.detail) fields[String(issue.loc[issue.loc.length - 1])] = issue.msg;
    return fields;
  }

  /** The 422 message of the first issue anywhere under `field` (`loc` names it at any depth). */
  errorAt(field: string): string | undefined {
    if (!this.body || !isValidationError(this.body)) return undefined;
    return this.body.detail.find((issue) => issue.loc.includes(field))?.msg;
  }
}

function describe(status: number, body: ApiError['body'], retryAfter: string | null): string {
  if (status === 503) return 'The service is unavailable right now. Try again in a moment.';
  const detail =
    body === undefined
      ? `Request failed (${status})`
      : isValidationError(body)
        ? body.detail.map((issue) => issue.msg).join('; ')
        : body.detail;
  return status === 429 && retryAfter ? `${detail} (retry in ${retryAfter} s)` : detail;
}

/** Unwraps a typed-client answer for TanStack Query: the data, or an ApiError thrown. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new ApiError(0, { detail: 'The service cannot be reached. Check your connection.' }, null);
  }
  if (!result.response.ok) {
    throw new ApiError(
      result.response.status,
      result.error as ApiError['body'],
      result.response.headers.get('retry-after'),
    );
  }
  return result.data as T;
}
