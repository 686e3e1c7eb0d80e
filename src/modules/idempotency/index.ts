// What other modules may use of idempotency: the module, its service and the route decorator.
export { Idempotent } from './idempotent.decorator';
export { IdempotencyModule } from './idempotency.module';
export { IdempotencyService } from './idempotency.service';
