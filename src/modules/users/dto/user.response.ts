import { ApiProperty } from '@nestjs/swagger';
import type { User } from '../user';
import type { UserAuthState } from '../users.service';

export class UserResponse {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ example: 'ada@example.com', description: 'The login identifier, stored lower-cased' })
  email: string;

  @ApiProperty({ example: 'Ada Lovelace' })
  full_name: string;

  @ApiProperty({ example: true, description: 'An inactive user cannot log in' })
  is_active: boolean;

  @ApiProperty({ example: '2026-11-22T08:30:00.000Z', format: 'date-time' })
  created_at: string;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    example: null,
    description: 'Null before any update',
  })
  updated_at: string | null;

  static from(user: User): UserResponse {
    return {
      id: user.id,
      email: user.email,
      full_name: user.fullName,
      is_active: user.isActive,
      created_at: user.createdAt.toISOString(),
      updated_at: user.updatedAt?.toISOString() ?? null,
    };
  }

  /** The same profile from the cached auth state of user `id`. */
  static fromAuthState(id: number, state: UserAuthState): UserResponse {
    return {
      id,
      email: state.email,
      full_name: state.fullName,
      is_active: state.isActive,
      created_at: state.createdAt,
      updated_at: state.updatedAt,
    };
  }
}

export class AdminUserResponse extends UserResponse {
  @ApiProperty({ example: false })
  is_superuser: boolean;

  static override from(user: User): AdminUserResponse {
    return { ...UserResponse.from(user), is_superuser: user.isSuperuser };
  }
}
