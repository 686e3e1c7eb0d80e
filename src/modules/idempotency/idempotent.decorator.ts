import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiIdempotencyKey } from './api-idempotency-key.decorator';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * A write that accepts an `Idempotency-Key` (docs/idempotency.md): the key is claimed, the
 * handler runs, and the body it returns is stored, all in one transaction that the service's own
 * transactions join; a retry gets that body again with the route's status, a reused key with
 * another request is a 422, and a concurrent duplicate waits for the first. The route must answer
 * a JSON body with a fixed status, and its module must import `IdempotencyModule`.
 */
export const Idempotent = () => applyDecorators(ApiIdempotencyKey(), UseInterceptors(IdempotencyInterceptor));
