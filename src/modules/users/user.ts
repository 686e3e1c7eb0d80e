import { UserEntity } from './entities/user.entity';

/** An account as the rest of the service sees it: everything but the password hash. */
export interface User {
  id: number;
  email: string;
  fullName: string;
  isActive: boolean;
  isSuperuser: boolean;
  createdAt: Date;
  updatedAt: Date | null;
}

export function toUser(entity: UserEntity): User {
  return {
    id: entity.id,
    email: entity.email,
    fullName: entity.fullName,
    isActive: entity.isActive,
    isSuperuser: entity.isSuperuser,
    createdAt: entity.createdAt,
    updatedAt: entity.updatedAt,
  };
}
