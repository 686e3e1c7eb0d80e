import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, ValidateIf } from 'class-validator';
import { LimitField, SkipField } from '../../../common/validation/query-fields';
import { EmailField, FullNameField, PasswordField } from '../../users';

/** May be left out; an explicit null is validated like any value (a 422, never a null column). */
const OmittableNotNull = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

export class CreateAdminUserDto {
  @EmailField()
  email: string;

  @PasswordField()
  password: string;

  @FullNameField()
  full_name: string;

  @ApiPropertyOptional({ default: true })
  @OmittableNotNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({ default: false })
  @OmittableNotNull()
  @IsBoolean()
  is_superuser?: boolean;
}

/** Every field optional; `password` is our addition, for an administrator's reset. */
export class UpdateAdminUserDto {
  @ApiPropertyOptional()
  @OmittableNotNull()
  @EmailField()
  email?: string;

  @ApiPropertyOptional()
  @OmittableNotNull()
  @FullNameField()
  full_name?: string;

  @ApiPropertyOptional()
  @OmittableNotNull()
  @PasswordField()
  password?: string;

  @ApiPropertyOptional()
  @OmittableNotNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional()
  @OmittableNotNull()
  @IsBoolean()
  is_superuser?: boolean;
}

export class ListUsersQuery {
  @SkipField({ default: 0 })
  skip: number = 0;

  @LimitField({ default: 100, max: 1000 })
  limit: number = 100;
}

export class UserIdParams {
  @ApiProperty({ example: 1 })
  @Type(() => Number)
  @IsInt()
  user_id: number;
}
