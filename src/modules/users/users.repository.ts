import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { UserEntity } from './entities/user.entity';
import { toUser, User } from './user';

/** The stored fields of a new account, its email already in canonical form. */
export interface UserRow {
  email: string;
  fullName: string;
  hashedPassword: string;
  isActive: boolean;
  isSuperuser: boolean;
}

/** A user's row, locked until the transaction ends, and whether another active superuser exists. */
export interface LockedUser {
  user: User;
  anotherActiveSuperuser: boolean;
}

export type UserFieldChanges = Partial<UserRow> & { updatedAt?: Date };

/** Every query on the users table. */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  /** Inserts the account; a taken email throws the unique index's violation (see isUniqueViolation). */
  async insert(row: UserRow): Promise<User> {
    return toUser(await this.users.save(this.users.create({ ...row, updatedAt: null })));
  }

  async findById(id: number): Promise<User | null> {
    const user = await this.users.findOneBy({ id });
    return user && toUser(user);
  }

  /** The user with this (canonical) email and their password hash. */
  async findWithPasswordHash(email: string): Promise<{ user: User; hashedPassword: string } | null> {
    const user = await this.users.findOneBy({ email });
    return user && { user: toUser(user), hashedPassword: user.hashedPassword };
  }

  async page(skip: number, limit: number): Promise<User[]> {
    return (await this.users.find({ order: { id: 'ASC' }, skip, take: limit })).map(toUser);
  }

  /**
   * Locks the user (see lockUser), lets `decide` check the locked state — it throws to refuse — and
   * stores the changes it answers; null when there is no such user.
   */
  updateLocked(id: number, decide: (locked: LockedUser) => UserFieldChanges): Promise<User | null> {
    return this.users.manager.transaction(async (manager) => {
      const locked = await lockUser(manager, id);
      if (!locked) return null;
      const { entity, ...state } = locked;
      Object.assign(entity, decide(state));
      return toUser(await manager.save(entity));
    });
  }

  /** Locks the user, lets `check` refuse (by throwing), then deletes the row; false when there is no such user. */
  deleteLocked(id: number, check: (locked: LockedUser) => void): Promise<boolean> {
    return this.users.manager.transaction(async (manager) => {
      const locked = await lockUser(manager, id);
      if (!locked) return false;
      check(locked);
      await manager.delete(UserEntity, { id });
      return true;
    });
  }
}

/**
 * Locks the user and every active superuser in one statement, in id order. The other superusers'
 * rows stay locked so none of them can be demoted meanwhile; the order makes two changes that
 * each need the other's row (two admins demoting each other) queue rather than deadlock.
 */
async function lockUser(
  manager: EntityManager,
  id: number,
): Promise<(LockedUser & { entity: UserEntity }) | null> {
  const locked = await manager
    .createQueryBuilder(UserEntity, 'user')
    .where('user.id = :id OR (user.is_superuser AND user.is_active)', { id })
    .orderBy('user.id')
    .setLock('pessimistic_write')
    .getMany();
  const entity = locked.find((row) => row.id === id);
  if (!entity) return null;
  return {
    entity,
    user: toUser(entity),
    anotherActiveSuperuser: locked.some((row) => row !== entity && row.isSuperuser && row.isActive),
  };
}
