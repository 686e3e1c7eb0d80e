import { BadRequestException, Injectable, UnauthorizedException } from '@nestjs/common';
import { ErrorDetail } from '../../common/errors/error-details';
import { UsersService } from '../users/users.service';
import { LoginThrottleService } from './login-throttle.service';
import { SessionsService, TokenPair } from './sessions.service';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
  ) {}

  async login(email: string, password: string, clientIp: string): Promise<TokenPair> {
    await this.throttle.reserveAttempt(email, clientIp);
    const user = await this.users.verifyCredentials(email, password);
    if (!user) throw new UnauthorizedException(ErrorDetail.incorrectCredentials);
    await this.throttle.release(email, clientIp);
    if (!user.isActive) throw new BadRequestException(ErrorDetail.inactiveUser);
    return this.sessions.start(user.id);
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    const result = await this.sessions.rotate(refreshToken);
    const state = result.userId === null ? null : await this.users.authState(result.userId);
    // Deactivation also revokes the sessions, but an inactive user is told so (400) rather than 401.
    if (state && !state.isActive) throw new BadRequestException(ErrorDetail.inactiveUser);
    if (result.outcome === 'rejected' || !state)
      throw new UnauthorizedException(ErrorDetail.invalidRefreshToken);
    return result.tokens;
  }

  /** Ends the caller's session, and the one of `refreshToken` too when it belongs to the caller. */
  async logout(userId: number, sessionId: string, refreshToken?: string): Promise<void> {
    await this.sessions.revokeSession(sessionId);
    const other = refreshToken ? await this.sessions.sessionOfRefreshToken(refreshToken, userId) : null;
    if (other && other !== sessionId) await this.sessions.revokeSession(other);
  }

  logoutEverywhere(userId: number): Promise<void> {
    return this.sessions.revokeAllSessions(userId);
  }
}
