import type { FastifyReply, FastifyRequest } from 'fastify';

const failedAfterHeaders = new WeakMap<FastifyRequest, number>();

/**
 * A response that failed after its status line was sent (a Server-Sent Events stream that ends
 * with `event: error`) is counted with the status it would have had, so it shows among the 5xx.
 */
export function recordFailureAfterHeaders(request: FastifyRequest, status: number): void {
  failedAfterHeaders.set(request, status);
}

/** The status the request metrics count the response under. */
export function answeredStatus(request: FastifyRequest, reply: FastifyReply): number {
  return failedAfterHeaders.get(request) ?? reply.statusCode;
}
