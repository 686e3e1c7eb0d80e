import { ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ErrorDetail } from '../errors/error-details';
import type { LoggedRequest } from '../logging/request-log.options';
import type { AuthUser } from './auth-user';
import { IS_PUBLIC_ROUTE } from './public.decorator';

/** Global guard: a valid access token on every route not marked `@Public()`. */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_ROUTE, [
      context.getHandler(),
      context.getClass(),
    ]);
    return isPublic ? true : super.canActivate(context);
  }

  override handleRequest<TUser>(
    error: unknown,
    user: TUser | false,
    _info: unknown,
    context: ExecutionContext,
  ): TUser {
    if (error) throw error;
    if (!user) throw new UnauthorizedException(ErrorDetail.couldNotValidateCredentials);
    const raw: LoggedRequest = context.switchToHttp().getRequest<FastifyRequest>().raw;
    raw.userId = (user as unknown as AuthUser).id;
    return user;
  }
}
