import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, tap } from 'rxjs';
import { UnauthenticatedError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { appConfig } from '../../config/app.config';
import { authConfig } from '../../config/auth.config';

export const REFRESH_COOKIE_NAME = 'refresh_token';
/** Sent only to the auth routes: no other route ever sees the refresh token. */
export const REFRESH_COOKIE_PATH = '/api/v1/auth';
const ATTRIBUTES = `Path=${REFRESH_COOKIE_PATH}; HttpOnly; Secure; SameSite=Strict`;

/** What a route does with the refresh-token cookie when AUTH_REFRESH_COOKIE=true. */
type CookieUse = 'issue' | 'rotate' | 'clear';
const COOKIE_USE = 'refresh-cookie-use';

/**
 * The browser alternative to keeping the refresh token in script-readable storage (off unless
 * AUTH_REFRESH_COOKIE=true): `issue` sets it as an HttpOnly cookie from a token-pair answer;
 * `rotate` also takes it from the cookie when the body has none, but only for a page whose
 * Origin is one of CORS_ORIGINS, so another site (or a sibling origin of the same site) cannot
 * have it spent; `clear` removes it.
 */
export const RefreshCookie = (use: CookieUse) =>
  applyDecorators(SetMetadata(COOKIE_USE, use), UseInterceptors(RefreshCookieInterceptor));

@Injectable()
export class RefreshCookieInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.auth.refreshCookie) return next.handle();
    const use = this.reflector.get<CookieUse>(COOKIE_USE, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    if (use === 'clear') {
      void reply.header('set-cookie', `${REFRESH_COOKIE_NAME}=; Max-Age=0; ${ATTRIBUTES}`);
      return next.handle();
    }
    if (use === 'rotate') this.takeTokenFromCookie(request);
    return next.handle().pipe(
      tap((body) => {
        const token = (body as { refresh_token?: unknown } | undefined)?.refresh_token;
        if (typeof token !== 'string') return;
        void reply.header(
          'set-cookie',
          `${REFRESH_COOKIE_NAME}=${token}; Max-Age=${this.auth.refreshTokenTtlSeconds}; ${ATTRIBUTES}`,
        );
      }),
    );
  }

  private takeTokenFromCookie(request: FastifyRequest): void {
    const body = request.body as Record<string, unknown> | undefined | null;
    if (body && typeof body === 'object' && body.refresh_token !== undefined) return;
    const token = cookieValue(request.headers.cookie, REFRESH_COOKIE_NAME);
    if (token === undefined) return;
    const origin = request.headers.origin;
    const allowed =
      Array.isArray(this.app.corsOrigins) && origin !== undefined && this.app.corsOrigins.includes(origin);
    if (!allowed) throw new UnauthenticatedError(ErrorDetail.invalidRefreshToken);
    request.body = { ...(body && typeof body === 'object' ? body : {}), refresh_token: token };
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator !== -1 && pair.slice(0, separator).trim() === name) {
      const value = pair.slice(separator + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}
