import type { FastifyRequest } from 'fastify';
import { parseIdempotencyKey } from './idempotency-key';
import { requestFingerprint } from './request-fingerprint';

/** A write sent with an `Idempotency-Key`: the key, and a hash of what was asked under it. */
export interface IdempotentRequest {
  key: string;
  /** SHA-256 (hex) of the method, the route and the canonical body; see requestFingerprint. */
  fingerprint: string;
}

/**
 * The request's `Idempotency-Key` with the fingerprint of the request it came with; undefined
 * without the header, 422 at ["header", "Idempotency-Key"] for an invalid key.
 */
export function idempotentRequestOf(request: FastifyRequest): IdempotentRequest | undefined {
  const key = parseIdempotencyKey(request.headers['idempotency-key']);
  if (key === undefined) return undefined;
  return { key, fingerprint: requestFingerprint(request.method, requestTarget(request), request.body) };
}

/**
 * The route template, with the path parameters and query when the request has any: one key used
 * for `PATCH …/transactions/1` and then `…/2`, or for an import into two accounts, is a reused key
 * (a request without either keeps the fingerprint it always had).
 */
function requestTarget(request: FastifyRequest): string {
  const route = request.routeOptions.url ?? request.url;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (Object.keys(params).length === 0 && Object.keys(query).length === 0) return route;
  return `${route} ${JSON.stringify(sortedEntries(params))} ${JSON.stringify(sortedEntries(query))}`;
}

function sortedEntries(record: Record<string, unknown>): [string, unknown][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
