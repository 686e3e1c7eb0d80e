import { CanActivate, ExecutionContext, Inject, Injectable, OnModuleInit, Type } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { PARAMTYPES_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { rateLimitConfig, RateLimitBucket } from '../../config/rate-limit.config';
import { CleanupRunner } from '../jobs/cleanup-runner';
import { Clock } from '../time/clock';
import { ErrorDetail } from '../errors/error-details';
import { PydanticValidationPipe } from '../validation/pydantic-validation.pipe';
import { FixedWindow } from './fixed-window';
import { RATE_LIMITED } from './rate-limited.decorator';
import { WindowCountersRepository } from './window-counters.repository';

/**
 * Fixed-window limits on the routes marked `@RateLimited(bucket)`: per client address and, where
 * the bucket has one, for all clients together, counted in PostgreSQL so every instance shares them
 * (one statement per request; a request refused for its address does not count for all clients).
 * Over either limit: 429 with Retry-After until the window ends. Where a bucket has a shared limit
 * the body is validated first, so a malformed request is a 422 that counts nowhere: junk cannot
 * spend the budget real users share.
 * The client address is Fastify's `request.ip`, which follows X-Forwarded-For only as far as
 * TRUST_PROXY allows. Ended windows are deleted by a clean-up job.
 */
@Injectable()
export class RateLimitGuard implements CanActivate, OnModuleInit {
  private readonly validation = new PydanticValidationPipe();
  private readonly window: FixedWindow;

  constructor(
    private readonly reflector: Reflector,
    private readonly counters: WindowCountersRepository,
    private readonly clock: Clock,
    @Inject(rateLimitConfig.KEY) private readonly config: ConfigType<typeof rateLimitConfig>,
    private readonly cleanups: CleanupRunner,
  ) {
    this.window = new FixedWindow(config.windowSeconds);
  }

  onModuleInit(): void {
    this.cleanups.register({
      name: 'rate-limit-windows',
      every: 'minute',
      run: () => this.counters.deleteEnded('rate-limit-windows', this.window.at(this.clock.now())),
    });
  }

  /** Synchronous for a route without a limit (most of them): no promise on their path. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const bucket = this.reflector.get<RateLimitBucket | undefined>(RATE_LIMITED, context.getHandler());
    return bucket ? this.limit(context, bucket) : true;
  }

  private async limit(context: ExecutionContext, bucket: RateLimitBucket): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const limits = this.config.buckets[bucket];
    // Only a budget that all clients share needs junk kept out of it; a per-address count is the
    // sender's own. Refresh has no shared budget, and its body may still be completed from the
    // refresh-token cookie by the route's interceptor, which runs after guards.
    const bodyType = limits.global === null ? undefined : bodyTypeOf(context);
    if (bodyType) await this.validation.transform(request.body, { type: 'body', metatype: bodyType });
    const now = this.clock.now();
    const { address, shared } = await this.counters.countRequest(
      `${bucket}:ip:${request.ip.slice(0, 64)}`,
      limits.global === null ? null : `${bucket}:all`,
      limits.perIp,
      this.window.at(now),
    );
    this.window.enforce(address, limits.perIp, ErrorDetail.tooManyRequests, now);
    if (shared && limits.global !== null) {
      this.window.enforce(shared, limits.global, ErrorDetail.tooManyRequests, now);
    }
    return true;
  }
}

const bodyTypes = new WeakMap<object, Type | null>();

/** The class of the handler's `@Body()` argument, as Nest's own pipes see it; null without one. */
function bodyTypeOf(context: ExecutionContext): Type | null {
  const handler = context.getHandler();
  let type = bodyTypes.get(handler);
  if (type === undefined) {
    const controller = context.getClass();
    const args: Record<string, { index: number }> =
      Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {};
    const body = Object.entries(args).find(([key]) => key.startsWith(`${RouteParamtypes.BODY}:`));
    const paramTypes: Type[] =
      Reflect.getMetadata(PARAMTYPES_METADATA, controller.prototype, handler.name) ?? [];
    type = body ? (paramTypes[body[1].index] ?? null) : null;
    bodyTypes.set(handler, type);
  }
  return type;
}
