import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AuthUser } from '../../common/auth/auth-user';
import { ForbiddenError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { UsersService } from '../users';
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

  async validate(claims: Partial<TokenClaims>): Promise<AuthUser | false> {
    if (!isWellFormed(claims, 'access')) return false;
    const userId = Number(claims.sub);
    // Both reads at once (one wait, one round trip with Redis); decided in the same order as before.
    const [state, sessionIsActive] = await Promise.all([
      this.users.authState(userId),
      this.sessions.isActive(claims.sid, userId),
    ]);
    if (!state) return false;
    // Deactivation also revokes the sessions, but an inactive user is told so (403) rather than 401.
    if (!state.isActive) throw new ForbiddenError(ErrorDetail.inactiveUser);
    if (!sessionIsActive) return false;
    return { id: userId, email: state.email, isSuperuser: state.isSuperuser, sessionId: claims.sid };
  }
}
