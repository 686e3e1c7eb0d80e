import { Injectable } from '@nestjs/common';
import { AuthService } from '../auth';
import { UserAdministrationService, UserChanges } from '../users';
import type { User } from '../users';

/**
 * Account changes made by a superuser, with their effect on the account's sessions: a new
 * password or a deactivation ends every session of the account at once (its access and refresh
 * tokens stop working, and stay revoked if the account is activated again).
 */
@Injectable()
export class AccountAdministrationService {
  constructor(
    private readonly accounts: UserAdministrationService,
    private readonly auth: AuthService,
  ) {}

  async update(id: number, actorId: number, changes: UserChanges): Promise<User> {
    const user = await this.accounts.update(id, actorId, changes);
    if (changes.password || changes.isActive === false) await this.auth.logoutEverywhere(id);
    return user;
  }

  async setActive(id: number, isActive: boolean, actorId: number): Promise<User> {
    const user = await this.accounts.setActive(id, isActive, actorId);
    if (!isActive) await this.auth.logoutEverywhere(id);
    return user;
  }
}
