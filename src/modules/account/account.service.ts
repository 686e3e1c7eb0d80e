import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/auth-user';
import type { ClientInfo } from '../../common/auth/client.decorator';
import { RuleViolationError } from '../../common/errors/domain-errors';
import { FieldProblems } from '../../common/errors/field-problems';
import { ErrorDetail } from '../../common/errors/error-details';
import { LoginThrottleService, SessionsService, SessionSummary } from '../auth';
import type { User } from '../users';
import { canonicalEmail, UserAdministrationService, UsersService } from '../users';

export interface ProfileChanges {
  fullName?: string;
  email?: string;
  currentPassword?: string;
}

/**
 * What users do to their own account. Every step that asks for the current password counts a
 * wrong one like a failed login (the same lockout per email and address), so a stolen access
 * token cannot be used to guess the password.
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly users: UsersService,
    private readonly accounts: UserAdministrationService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
  ) {}

  /** A new password; every other session of the caller ends, the current one goes on. */
  async changePassword(caller: AuthUser, client: ClientInfo, current: string, next: string): Promise<void> {
    await this.confirmPassword(caller, client, current);
    await this.accounts.changePassword(caller.id, next);
    await this.sessions.revokeAllSessions(caller.id, caller.sessionId);
  }

  listSessions(caller: AuthUser): Promise<SessionSummary[]> {
    return this.sessions.list(caller.id);
  }

  endSession(caller: AuthUser, sessionId: string): Promise<void> {
    return this.sessions.revokeOwnSession(caller.id, sessionId);
  }

  /** The full name; a different email needs the current password. */
  async updateProfile(caller: AuthUser, client: ClientInfo, changes: ProfileChanges): Promise<User> {
    const email = changes.email === undefined ? undefined : canonicalEmail(changes.email);
    if (email !== undefined && email !== caller.email) {
      if (changes.currentPassword === undefined) {
        throw new FieldProblems([{ path: ['current_password'], type: 'missing' }]);
      }
      await this.confirmPassword(caller, client, changes.currentPassword);
    }
    return this.accounts.update(caller.id, caller.id, { email, fullName: changes.fullName });
  }

  /** Deletes the account and everything that is the user's; the last active superuser stays. */
  async deleteAccount(caller: AuthUser, client: ClientInfo, password: string): Promise<void> {
    await this.confirmPassword(caller, client, password);
    await this.accounts.deleteAccount(caller.id);
  }

  private async confirmPassword(caller: AuthUser, client: ClientInfo, password: string): Promise<void> {
    await this.throttle.reserveAttempt(caller.email, client.ip);
    const user = await this.users.verifyCredentials(caller.email, password);
    if (!user || user.id !== caller.id) throw new RuleViolationError(ErrorDetail.incorrectPassword);
    await this.throttle.release(caller.email, client.ip);
  }
}
