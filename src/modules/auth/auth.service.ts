import { Inject, Injectable } from '@nestjs/common';
import { RuleViolationError, UnauthenticatedError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { UsersService } from '../users/users.service';
import { LoginThrottleService } from './login-throttle.service';
import { SessionsService, TokenPair } from './sessions.service';

/** What signing in needs of the users module. */
export type CredentialChecks = Pick<UsersService, 'verifyCredentials' | 'authState'>;
export type SessionKeeping = Pick<
  SessionsService,
  'start' | 'rotate' | 'revokeSession' | 'sessionOfRefreshToken' | 'revokeAllSessions'
>;
export type LoginAttempts = Pick<LoginThrottleService, 'reserveAttempt' | 'release'>;

/** The collaborators are typed by what is used of them, so unit specs pass typed fakes. */
@Injectable()
export class AuthService {
  constructor(
    @Inject(UsersService) private readonly users: CredentialChecks,
    @Inject(SessionsService) private readonly sessions: SessionKeeping,
    @Inject(LoginThrottleService) private readonly throttle: LoginAttempts,
  ) {}

  async login(email: string, password: string, clientIp: string): Promise<TokenPair> {
    await this.throttle.reserveAttempt(email, clientIp);
    const user = await this.users.verifyCredentials(email, password);
    if (!user) throw new UnauthenticatedError(ErrorDetail.incorrectCredentials);
    await this.throttle.release(email, clientIp);
    if (!user.isActive) throw new RuleViolationError(ErrorDetail.inactiveUser);
    return this.sessions.start(user.id);
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    const result = await this.sessions.rotate(refreshToken);
    const state = result.userId === null ? null : await this.users.authState(result.userId);
    // Deactivation also revokes the sessions, but an inactive user is told so (400) rather than 401.
    if (state && !state.isActive) throw new RuleViolationError(ErrorDetail.inactiveUser);
    if (result.outcome === 'rejected' || !state)
      throw new UnauthenticatedError(ErrorDetail.invalidRefreshToken);
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
