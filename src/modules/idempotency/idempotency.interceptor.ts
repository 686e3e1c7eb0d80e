import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { defer, lastValueFrom, Observable } from 'rxjs';
import { AuthUser } from '../../common/auth/auth-user';
import { IdempotencyService } from './idempotency.service';
import { idempotentRequestOf } from './idempotent-request';

/**
 * Runs a route sent with an `Idempotency-Key` at most once per key and user (see `@Idempotent()`):
 * the handler (pipes, controller, service) runs inside the unit of work that claims the key, and
 * what the route answers is stored in it. A request without the header passes through untouched.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user: AuthUser }>();
    const idempotent = idempotentRequestOf(request);
    if (!idempotent) return next.handle();
    // `next.handle()` is called inside the unit of work: Nest binds the handler to the async
    // context it is called in, and the handler's repositories find the transaction there.
    return defer(() =>
      this.idempotency.answer(request.user.id, idempotent, () => lastValueFrom(next.handle())),
    );
  }
}
