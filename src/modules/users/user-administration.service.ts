import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '../../common/time/clock';
import { NotFoundError, RuleViolationError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { isUniqueViolation } from '../../database/unique-violation';
import { EmailTakenError } from './email-taken.error';
import { PasswordHasher } from './password-hasher';
import { PasswordPolicy } from './password-policy';
import { User } from './user';
import { LockedUser, UserFieldChanges, UsersRepository } from './users.repository';
import { canonicalEmail, isStorableUserId, NewUser, UsersService } from './users.service';

export interface UserChanges {
  email?: string;
  fullName?: string;
  password?: string;
  isActive?: boolean;
  isSuperuser?: boolean;
}

/**
 * Changes to accounts: a superuser's operations, and a user's own password change and deletion. Changes that could leave the service without an active
 * superuser run in a transaction that locks the superuser rows, so two admins demoting each
 * other at the same moment cannot both succeed.
 */
@Injectable()
export class UserAdministrationService {
  constructor(
    private readonly rows: UsersRepository,
    private readonly users: UsersService,
    private readonly passwords: PasswordHasher,
    private readonly passwordPolicy: PasswordPolicy,
    private readonly clock: Clock,
  ) {}

  create(user: NewUser): Promise<User> {
    return this.users.create(user);
  }

  async list(skip: number, limit: number): Promise<User[]> {
    return this.rows.page(skip, limit);
  }

  async get(id: number): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) throw new NotFoundError(ErrorDetail.userNotFound);
    return user;
  }

  async update(id: number, actorId: number, changes: UserChanges): Promise<User> {
    if (changes.isActive === false && id === actorId) {
      throw new RuleViolationError(ErrorDetail.cannotDeactivateOwnAccount);
    }
    if (changes.password) {
      const current = await this.get(id);
      await this.passwordPolicy.requireStrong(changes.password, ['password'], {
        email: changes.email ?? current.email,
        fullName: changes.fullName ?? current.fullName,
      });
    }
    const hashedPassword = changes.password ? await this.passwords.hash(changes.password) : undefined;
    try {
      return await this.change(id, (locked) => {
        if (changes.isActive === false) {
          requireAnotherActiveSuperuser(locked, ErrorDetail.cannotDeactivateLastSuperuser);
        }
        if (changes.isSuperuser === false) {
          requireAnotherActiveSuperuser(locked, ErrorDetail.cannotDemoteLastSuperuser);
        }
        return {
          ...(changes.email !== undefined && { email: canonicalEmail(changes.email) }),
          ...(changes.fullName !== undefined && { fullName: changes.fullName }),
          ...(hashedPassword && { hashedPassword }),
          ...(changes.isActive !== undefined && { isActive: changes.isActive }),
          ...(changes.isSuperuser !== undefined && { isSuperuser: changes.isSuperuser }),
        };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new EmailTakenError(ErrorDetail.emailInUseByAnotherUser);
      throw error;
    }
  }

  setActive(id: number, isActive: boolean, actorId: number): Promise<User> {
    if (!isActive && id === actorId) throw new RuleViolationError(ErrorDetail.cannotDeactivateOwnAccount);
    return this.change(id, (locked) => {
      if (!isActive) requireAnotherActiveSuperuser(locked, ErrorDetail.cannotDeactivateLastSuperuser);
      return { isActive };
    });
  }

  /** The user's own new password, held to the password policy (a 422 at `new_password`). */
  async changePassword(id: number, password: string): Promise<void> {
    const current = await this.get(id);
    await this.passwordPolicy.requireStrong(password, ['new_password'], current);
    const hashedPassword = await this.passwords.hash(password);
    await this.change(id, () => ({ hashedPassword }));
  }

  async delete(id: number, actorId: number): Promise<void> {
    if (id === actorId) throw new RuleViolationError(ErrorDetail.cannotDeleteOwnAccount);
    await this.deleteAccount(id);
  }

  /**
   * Deletes the account and, by the foreign keys' ON DELETE CASCADE, every row that is the user's:
   * sessions, refresh tokens, preferences, transactions, lot selections, settings, ledger version,
   * idempotency keys, conversations, messages and chat-turn counts.
   */
  async deleteAccount(id: number): Promise<void> {
    await this.deleteLocked(id);
    await this.users.forgetAuthState(id);
  }

  @Transactional()
  private async deleteLocked(id: number): Promise<void> {
    requireAnotherActiveSuperuser(await this.lock(id), ErrorDetail.cannotDeleteLastSuperuser);
    await this.rows.delete(id);
  }

  private async change(id: number, decide: (locked: LockedUser) => UserFieldChanges): Promise<User> {
    const saved = await this.changeLocked(id, decide);
    await this.users.forgetAuthState(id);
    return saved;
  }

  /** Decides the changes on the locked state (`decide` throws to refuse) and stores them, in one transaction. */
  @Transactional()
  private async changeLocked(id: number, decide: (locked: LockedUser) => UserFieldChanges): Promise<User> {
    const changes = decide(await this.lock(id));
    return this.rows.update(id, { ...changes, updatedAt: this.clock.now() });
  }

  private async lock(id: number): Promise<LockedUser> {
    const locked = isStorableUserId(id) ? await this.rows.lockWithActiveSuperusers(id) : null;
    if (!locked) throw new NotFoundError(ErrorDetail.userNotFound);
    return locked;
  }
}

/** Refuses a change that would leave no active superuser. */
function requireAnotherActiveSuperuser({ user, anotherActiveSuperuser }: LockedUser, detail: string): void {
  if (user.isSuperuser && user.isActive && !anotherActiveSuperuser) throw new RuleViolationError(detail);
}
