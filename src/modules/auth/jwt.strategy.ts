import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AuthUser } from '../../common/auth/auth-user';
import { ForbiddenError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { UserAuthState, UsersService } from '../users';
import { SessionsService } from './sessions.service';
import { isWellFormed, SigningKey, TokenClaims } from './token-signer';

/** Access tokens only, of a live session, of an existing user; inactive users get 403. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    key: SigningKey,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // passport-jwt hands the key to jsonwebtoken, which takes a KeyObject; its types predate that.
      secretOrKey: key.verificationKey as unknown as Buffer,
      algorithms: [key.algorithm],
      ignoreExpiration: false,
    });
  }

  /**
   * Decided at once when this process holds both states (the usual request: no promise, no wait);
   * otherwise the missing ones are read together (one wait, one round trip with Redis). Either way
   * in the same order: missing user 401, inactive 403, revoked session 401.
   */
  validate(claims: Partial<TokenClaims>): AuthUser | false | Promise<AuthUser | false> {
    if (!isWellFormed(claims, 'access')) return false;
    const userId = Number(claims.sub);
    const state = this.users.cachedAuthState(userId);
    const sessionIsActive = this.sessions.cachedIsActive(claims.sid, userId);
    if (state !== undefined && sessionIsActive !== undefined) {
      return authenticated(userId, claims.sid, state, sessionIsActive);
    }
    return Promise.all([
      state !== undefined ? state : this.users.authState(userId),
      sessionIsActive !== undefined ? sessionIsActive : this.sessions.isActive(claims.sid, userId),
    ]).then(([loadedState, loadedIsActive]) =>
      authenticated(userId, claims.sid, loadedState, loadedIsActive),
    );
  }
}

function authenticated(
  userId: number,
  sessionId: string,
  state: UserAuthState | null,
  sessionIsActive: boolean,
): AuthUser | false {
  if (!state) return false;
  // Deactivation also revokes the sessions, but an inactive user is told so (403) rather than 401.
  if (!state.isActive) throw new ForbiddenError(ErrorDetail.inactiveUser);
  if (!sessionIsActive) return false;
  return { id: userId, email: state.email, isSuperuser: state.isSuperuser, sessionId };
}
