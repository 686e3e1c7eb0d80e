export { ApiIdempotencyKey } from './api-idempotency-key.decorator';
export { IdempotencyKey } from './idempotency-key.decorator';
export type { IdempotentRequest } from './idempotent-request';
