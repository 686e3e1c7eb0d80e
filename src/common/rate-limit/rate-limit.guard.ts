import { CanActivate, ExecutionContext, Inject, Injectable, OnModuleInit, Type } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { PARAMTYPES_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { BucketLimits, rateLimitConfig, RateLimitBucket } from '../../config/rate-limit.config';
import { CleanupRunner, EVERY_MINUTE } from '../jobs/cleanup-runner';
import { Clock } from '../time/clock';
import { RateLimitedError } from '../errors/domain-errors';
import { ErrorDetail } from '../errors/error-details';
import { PydanticValidationPipe } from '../validation/pydantic-validation.pipe';
import { RATE_LIMITED } from './rate-limited.decorator';

/** One more hit in the window, or the first of a new one when the window ($4) has ended. */
const COUNT_IN_WINDOW = `
  hits = CASE WHEN w.window_started_at <= $4 THEN 1 ELSE w.hits + 1 END,
  window_started_at = CASE WHEN w.window_started_at <= $4 THEN $3 ELSE w.window_started_at END`;

interface Window {
  bucket: string;
  hits: number;
  window_started_at: Date;
}

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

  constructor(
    private readonly reflector: Reflector,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(rateLimitConfig.KEY) private readonly config: ConfigType<typeof rateLimitConfig>,
    private readonly cleanups: CleanupRunner,
  ) {}

  onModuleInit(): void {
    this.cleanups.register({
      name: 'rate-limit-windows',
      cron: EVERY_MINUTE,
      run: () => this.forgetEndedWindows(),
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
    const over = await this.count(bucket, request.ip.slice(0, 64), limits);
    if (!over) return true;
    const retryAfterMs =
      new Date(over.window_started_at).getTime() + this.windowMs() - this.clock.now().getTime();
    throw new RateLimitedError(ErrorDetail.tooManyRequests, Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }

  /** Counts the request; the window it is over the limit of, if any. */
  private async count(bucket: string, ip: string, limits: BucketLimits): Promise<Window | undefined> {
    const now = this.clock.now();
    // The address's window is counted first, and the shared one only for a request its address
    // may make: one address far over its own limit must not use up everyone's.
    const windows: Window[] = await this.dataSource.query(
      `WITH address AS (
         INSERT INTO rate_limit_windows AS w (bucket, hits, window_started_at) VALUES ($1, 1, $3)
         ON CONFLICT (bucket) DO UPDATE SET ${COUNT_IN_WINDOW}
         RETURNING bucket, hits, window_started_at
       ), everyone AS (
         INSERT INTO rate_limit_windows AS w (bucket, hits, window_started_at)
         SELECT $2, 1, $3 FROM address WHERE address.hits <= $5 AND $6
         ON CONFLICT (bucket) DO UPDATE SET ${COUNT_IN_WINDOW}
         RETURNING bucket, hits, window_started_at
       )
       SELECT * FROM address UNION ALL SELECT * FROM everyone`,
      [
        `${bucket}:ip:${ip}`,
        `${bucket}:all`,
        now,
        new Date(now.getTime() - this.windowMs()),
        limits.perIp,
        limits.global !== null,
      ],
    );
    return windows.find((window) =>
      window.bucket.endsWith(':all') ? window.hits > (limits.global ?? Infinity) : window.hits > limits.perIp,
    );
  }

  private async forgetEndedWindows(): Promise<number> {
    const [, removed] = (await this.dataSource.query(
      `DELETE FROM rate_limit_windows WHERE window_started_at <= $1`,
      [new Date(this.clock.now().getTime() - this.windowMs())],
    )) as [unknown, number];
    return removed;
  }

  private windowMs(): number {
    return this.config.windowSeconds * 1000;
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
