import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';

type OnSendDone = (error: Error | null, payload?: unknown) => void;

/** How long a browser may reuse the docs and the OpenAPI document before revalidating them. */
export const DOCS_MAX_AGE_SECONDS = 300;

/** An answer to a caller who identified themselves: only their browser keeps it, and revalidates. */
const PERSONAL = 'private, no-cache';

/**
 * How each response may be cached, unless its route said so itself: the docs and the OpenAPI
 * document (the same for everyone and unchanged while a version runs) are public for a few
 * minutes and carry an ETag, so a revisit costs a 304; anything answered to a request with
 * credentials is private. Token responses (login, refresh) say `no-store` on their routes. Registered before compression, so the ETag is of the document itself.
 */
export function registerHttpCaching(fastify: FastifyInstance, docsPaths: { ui: string; document: string }) {
  const isDocs = (path: string) =>
    path === docsPaths.document || path === docsPaths.ui || path.startsWith(`${docsPaths.ui}/`);

  // A callback hook, not an async one: it runs on every response, and a promise per response is
  // work the answer does not need.
  fastify.addHook(
    'onSend',
    (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: OnSendDone) => {
      if (isDocs(request.url.split('?')[0]) && reply.statusCode === 200) {
        void reply.header('cache-control', `public, max-age=${DOCS_MAX_AGE_SECONDS}`);
        // Static assets come as streams with @fastify/static's own validators and 304s.
        if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
        const etag = `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
        void reply.header('etag', etag);
        if (matches(request.headers['if-none-match'], etag)) {
          void reply.code(304);
          return done(null, '');
        }
        return done(null, payload);
      }
      if (!reply.hasHeader('cache-control') && request.headers.authorization !== undefined) {
        void reply.header('cache-control', PERSONAL);
      }
      done(null, payload);
    },
  );
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag === etag || `W/${tag}` === etag);
}
