import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
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

/** Every query on the users table; each joins the caller's transaction when there is one. */
@Injectable()
export class UsersRepository {
  constructor(private readonly host: TransactionHost<TransactionalAdapterTypeOrm>) {}

  /** The current transaction's EntityManager, or the pool's outside one. */
  private get manager() {
    return this.host.tx;
  }

  private get users() {
    return this.manager.getRepository(UserEntity);
  }

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
   * Locks the user and every active superuser in one statement, in id order, until the caller's
   * transaction ends. The other superusers' rows stay locked so none of them can be demoted
   * meanwhile; the order makes two changes that each need the other's row (two admins demoting
   * each other) queue rather than deadlock. Null when there is no such user.
   */
  async lockWithActiveSuperusers(id: number): Promise<LockedUser | null> {
    const locked = await this.manager
      .createQueryBuilder(UserEntity, 'user')
      .where('user.id = :id OR (user.is_superuser AND user.is_active)', { id })
      .orderBy('user.id')
      .setLock('pessimistic_write')
      .getMany();
    const entity = locked.find((row) => row.id === id);
    if (!entity) return null;
    return {
      user: toUser(entity),
      anotherActiveSuperuser: locked.some((row) => row !== entity && row.isSuperuser && row.isActive),
    };
  }

  async update(id: number, changes: UserFieldChanges): Promise<User> {
    await this.manager.update(UserEntity, { id }, changes);
    return toUser(await this.manager.findOneByOrFail(UserEntity, { id }));
  }

  async delete(id: number): Promise<void> {
    await this.manager.delete(UserEntity, { id });
  }
}
