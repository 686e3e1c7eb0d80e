import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { IdempotentRequest } from './idempotent-request';
import { parseIdempotencyKey } from './idempotency-key';
import { requestFingerprint } from './request-fingerprint';

/**
 * The request's `Idempotency-Key` with the fingerprint of the request it came with; undefined
 * without the header, 422 at ["header", "Idempotency-Key"] for an invalid key.
 */
export const IdempotencyKey = createParamDecorator(
  (_data: unknown, context: ExecutionContext): IdempotentRequest | undefined => {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    if (key === undefined) return undefined;
    return {
      key,
      fingerprint: requestFingerprint(request.method, request.routeOptions.url ?? request.url, request.body),
    };
  },
);
