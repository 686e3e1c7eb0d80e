import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/time/clock';
import { ErrorDetail } from '../../common/errors/error-details';
import { UserEntity } from './entities/user.entity';
import { PasswordHasher } from './password-hasher';
import { isUniqueViolation } from './unique-violation';
import { canonicalEmail, isStorableUserId, NewUser, UsersService } from './users.service';

export interface UserChanges {
  email?: string;
  fullName?: string;
  password?: string;
  isActive?: boolean;
  isSuperuser?: boolean;
}

/**
 * Superuser operations on accounts. Changes that could leave the service without an active
 * superuser run in a transaction that locks the superuser rows, so two admins demoting each
 * other at the same moment cannot both succeed.
 */
@Injectable()
export class UserAdministrationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly passwords: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  create(user: NewUser): Promise<UserEntity> {
    return this.users.create(user);
  }

  list(skip: number, limit: number): Promise<UserEntity[]> {
    return this.dataSource.getRepository(UserEntity).find({ order: { id: 'ASC' }, skip, take: limit });
  }

  async get(id: number): Promise<UserEntity> {
    const user = await this.users.findById(id);
    if (!user) throw new NotFoundException(ErrorDetail.userNotFound);
    return user;
  }

  async update(id: number, actorId: number, changes: UserChanges): Promise<UserEntity> {
    if (changes.isActive === false && id === actorId) {
      throw new BadRequestException(ErrorDetail.cannotDeactivateOwnAccount);
    }
    const hashedPassword = changes.password ? await this.passwords.hash(changes.password) : undefined;
    try {
      return await this.change(id, async (manager, user) => {
        if (changes.email !== undefined) user.email = canonicalEmail(changes.email);
        if (changes.fullName !== undefined) user.fullName = changes.fullName;
        if (hashedPassword) user.hashedPassword = hashedPassword;
        if (changes.isActive === false && user.isActive) {
          await this.requireAnotherActiveSuperuser(manager, user, ErrorDetail.cannotDeactivateLastSuperuser);
        }
        if (changes.isSuperuser === false && user.isSuperuser) {
          await this.requireAnotherActiveSuperuser(manager, user, ErrorDetail.cannotDemoteLastSuperuser);
        }
        if (changes.isActive !== undefined) user.isActive = changes.isActive;
        if (changes.isSuperuser !== undefined) user.isSuperuser = changes.isSuperuser;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new BadRequestException(ErrorDetail.emailInUseByAnotherUser);
      throw error;
    }
  }

  setActive(id: number, isActive: boolean, actorId: number): Promise<UserEntity> {
    if (!isActive && id === actorId) throw new BadRequestException(ErrorDetail.cannotDeactivateOwnAccount);
    return this.change(id, async (manager, user) => {
      if (!isActive && user.isActive) {
        await this.requireAnotherActiveSuperuser(manager, user, ErrorDetail.cannotDeactivateLastSuperuser);
      }
      user.isActive = isActive;
    });
  }

  async delete(id: number, actorId: number): Promise<void> {
    if (id === actorId) throw new BadRequestException(ErrorDetail.cannotDeleteOwnAccount);
    await this.dataSource.transaction(async (manager) => {
      const user = await this.lockUser(manager, id);
      await this.requireAnotherActiveSuperuser(manager, user, ErrorDetail.cannotDeleteLastSuperuser);
      await manager.delete(UserEntity, { id });
    });
    await this.users.forgetAuthState(id);
  }

  private async change(
    id: number,
    apply: (manager: EntityManager, user: UserEntity) => Promise<void>,
  ): Promise<UserEntity> {
    const saved = await this.dataSource.transaction(async (manager) => {
      const user = await this.lockUser(manager, id);
      await apply(manager, user);
      user.updatedAt = this.clock.now();
      return manager.save(user);
    });
    await this.users.forgetAuthState(id);
    return saved;
  }

  private async lockUser(manager: EntityManager, id: number): Promise<UserEntity> {
    if (!isStorableUserId(id)) throw new NotFoundException(ErrorDetail.userNotFound);
    const user = await manager.findOne(UserEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!user) throw new NotFoundException(ErrorDetail.userNotFound);
    return user;
  }

  /** Refuses the change when `user` is the only active superuser left. */
  private async requireAnotherActiveSuperuser(
    manager: EntityManager,
    user: UserEntity,
    detail: string,
  ): Promise<void> {
    if (!user.isSuperuser || !user.isActive) return;
    const others = await manager
      .createQueryBuilder(UserEntity, 'user')
      .select('user.id')
      .setLock('pessimistic_write')
      .where('user.is_superuser AND user.is_active AND user.id <> :id', { id: user.id })
      .getMany();
    if (others.length === 0) throw new BadRequestException(detail);
  }
}
