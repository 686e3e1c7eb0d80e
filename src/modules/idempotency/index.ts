export { ApiIdempotencyKey } from './api-idempotency-key.decorator';
export { IdempotencyKey } from './idempotency-key.decorator';
export type { IdempotentRequest } from './idempotent-request';
export { IdempotencyModule } from './idempotency.module';
export { IdempotencyService } from './idempotency.service';
