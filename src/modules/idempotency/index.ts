// What other modules may use of idempotency: the module, its service and the route decorators.
export { ApiIdempotencyKey } from './api-idempotency-key.decorator';
export { IdempotencyKey } from './idempotency-key.decorator';
export type { IdempotentRequest } from './idempotent-request';
export { IdempotencyModule } from './idempotency.module';
export { IdempotencyService } from './idempotency.service';
