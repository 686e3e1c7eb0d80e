import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Takes a reply over from Fastify and writes the head of a Server-Sent Events stream, for the
 * route to write events to. The headers hooks have set so far (CORS, security headers) still
 * apply; the stream is personal, so it is never cached, and proxies are asked not to buffer it.
 */
export function openEventStream(reply: FastifyReply, requestId: string): ServerResponse {
  reply.hijack();
  const raw = reply.raw;
  const earlier = Object.entries(reply.getHeaders()).filter(
    (entry): entry is [string, string | number | string[]] => entry[1] !== undefined,
  );
  raw.writeHead(200, {
    ...Object.fromEntries(earlier),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'private, no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': requestId,
  });
  return raw;
}
