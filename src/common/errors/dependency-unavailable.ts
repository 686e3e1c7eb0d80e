/** Seconds a client is told to wait before retrying a request a dependency outage refused. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/** Socket errors: the dependency refused, dropped or never answered the connection. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs meaning "not now" rather than "wrong": a cancelled statement (our
 * statement_timeout), a server shutting down or out of connections, and class 08 (connection).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57014', '57P01', '57P02', '57P03', '53300', '53400']);

/** pg and pg-pool report these conditions only in their messages. */
const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Connection terminated',
  'timeout expired',
  'Client has encountered a connection error and is not queryable',
];

/**
 * Whether a failure means a dependency (the database) could not be reached in time, as opposed
 * to a bug: such requests answer 503 with Retry-After, not 500. TypeORM wraps the driver's error
 * in `driverError`; others chain it in `cause`.
 */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 3 || typeof error !== 'object' || error === null) return false;
  const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
  if (name === 'PoolQueueFullError') return true;
  if (typeof code === 'string' && (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code))) {
    return true;
  }
  if (typeof code === 'string' && code.startsWith('08') && code.length === 5) return true;
  // A unix socket that is not there (the embedded server stopped or is shutting down): only on
  // connect, so a missing file elsewhere stays a bug.
  if (code === 'ENOENT' && (error as { syscall?: unknown }).syscall === 'connect') return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.includes(text))) {
    return true;
  }
  const { driverError, cause } = error as { driverError?: unknown; cause?: unknown };
  return isDependencyUnavailable(driverError, depth + 1) || isDependencyUnavailable(cause, depth + 1);
}
