import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { ErrorDetail } from '../errors/error-details';
import { AuthUser } from './auth-user';

@Injectable()
export class SuperuserGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const user = context.switchToHttp().getRequest<{ user?: AuthUser }>().user;
    if (!user?.isSuperuser) throw new ForbiddenException(ErrorDetail.adminAccessRequired);
    return true;
  }
}

/**
 * Restricts a controller or route to superusers (403 otherwise). The OpenAPI document derives that
 * 403 from the guard (src/bootstrap/openapi/route-facts.ts).
 */
export const SuperuserOnly = () => applyDecorators(UseGuards(SuperuserGuard));
