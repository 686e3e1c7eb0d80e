import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/time/clock';
import { NotFoundError, RuleViolationError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { EmailTakenError } from './email-taken.error';
import { UserEntity } from './entities/user.entity';
import { PasswordHasher } from './password-hasher';
import { PasswordPolicy } from './password-policy';
import { isUniqueViolation } from './unique-violation';
import { toUser, User } from './user';
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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly passwords: PasswordHasher,
    private readonly passwordPolicy: PasswordPolicy,
    private readonly clock: Clock,
  ) {}

  create(user: NewUser): Promise<User> {
    return this.users.create(user);
  }

  async list(skip: number, limit: number): Promise<User[]> {
    const users = await this.dataSource
      .getRepository(UserEntity)
      .find({ order: { id: 'ASC' }, skip, take: limit });
    return users.map(toUser);
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
      await this.passwordPolicy.requireStrong(changes.password, ['body', 'password'], {
        email: changes.email ?? current.email,
        fullName: changes.fullName ?? current.fullName,
      });
    }
    const hashedPassword = changes.password ? await this.passwords.hash(changes.password) : undefined;
    try {
      return await this.change(id, (locked) => {
        const { user } = locked;
        if (changes.email !== undefined) user.email = canonicalEmail(changes.email);
        if (changes.fullName !== undefined) user.fullName = changes.fullName;
        if (hashedPassword) user.hashedPassword = hashedPassword;
        if (changes.isActive === false) {
          requireAnotherActiveSuperuser(locked, ErrorDetail.cannotDeactivateLastSuperuser);
        }
        if (changes.isSuperuser === false) {
          requireAnotherActiveSuperuser(locked, ErrorDetail.cannotDemoteLastSuperuser);
        }
        if (changes.isActive !== undefined) user.isActive = changes.isActive;
        if (changes.isSuperuser !== undefined) user.isSuperuser = changes.isSuperuser;
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
      locked.user.isActive = isActive;
    });
  }

  /** The user's own new password, held to the password policy (a 422 at `new_password`). */
  async changePassword(id: number, password: string): Promise<void> {
    const current = await this.get(id);
    await this.passwordPolicy.requireStrong(password, ['body', 'new_password'], current);
    const hashedPassword = await this.passwords.hash(password);
    await this.change(id, ({ user }) => {
      user.hashedPassword = hashedPassword;
    });
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
    await this.dataSource.transaction(async (manager) => {
      requireAnotherActiveSuperuser(await lockUser(manager, id), ErrorDetail.cannotDeleteLastSuperuser);
      await manager.delete(UserEntity, { id });
    });
    await this.users.forgetAuthState(id);
  }

  private async change(id: number, apply: (locked: LockedUser) => void): Promise<User> {
    const saved = await this.dataSource.transaction(async (manager) => {
      const locked = await lockUser(manager, id);
      apply(locked);
      locked.user.updatedAt = this.clock.now();
      return manager.save(locked.user);
    });
    await this.users.forgetAuthState(id);
    return toUser(saved);
  }
}

/** A user's row, locked until the transaction ends, and whether another active superuser exists. */
interface LockedUser {
  user: UserEntity;
  anotherActiveSuperuser: boolean;
}

/**
 * Locks the user and every active superuser in one statement, in id order. The other superusers'
 * rows stay locked so none of them can be demoted meanwhile; the order makes two changes that
 * each need the other's row (two admins demoting each other) queue rather than deadlock.
 */
async function lockUser(manager: EntityManager, id: number): Promise<LockedUser> {
  if (!isStorableUserId(id)) throw new NotFoundError(ErrorDetail.userNotFound);
  const locked = await manager
    .createQueryBuilder(UserEntity, 'user')
    .where('user.id = :id OR (user.is_superuser AND user.is_active)', { id })
    .orderBy('user.id')
    .setLock('pessimistic_write')
    .getMany();
  const user = locked.find((row) => row.id === id);
  if (!user) throw new NotFoundError(ErrorDetail.userNotFound);
  return {
    user,
    anotherActiveSuperuser: locked.some((row) => row !== user && row.isSuperuser && row.isActive),
  };
}

/** Refuses a change that would leave no active superuser. */
function requireAnotherActiveSuperuser({ user, anotherActiveSuperuser }: LockedUser, detail: string): void {
  if (user.isSuperuser && user.isActive && !anotherActiveSuperuser) throw new RuleViolationError(detail);
}
