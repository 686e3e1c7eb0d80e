import { Inject, Injectable } from '@nestjs/common';
import type { ClientInfo } from '../../common/auth/client.decorator';
import { RuleViolationError, UnauthenticatedError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { UsersService } from '../users';
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

  async login(email: string, password: string, client: ClientInfo): Promise<TokenPair> {
    await this.throttle.reserveAttempt(email, client.ip);
    const user = await this.users.verifyCredentials(email, password);
    if (!user) throw new UnauthenticatedError(ErrorDetail.incorrectCredentials);
    await this.throttle.release(email, client.ip);
    if (!user.isActive) throw new RuleViolationError(ErrorDetail.inactiveUser);
    return this.sessions.start(user.id, client);
  }

  async refresh(refreshToken: string, client: ClientInfo): Promise<TokenPair> {
    const result = await this.sessions.rotate(refreshToken, client);
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
