import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional } from 'class-validator';
import { LimitField, SkipField } from '../../../common/validation/query-fields';
import { EmailField, FullNameField, PasswordField } from '../../users/dto/user-fields';

export class CreateAdminUserDto {
  @EmailField()
  email: string;

  @PasswordField()
  password: string;

  @FullNameField()
  full_name: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  is_superuser?: boolean;
}

/** Every field optional; `password` is our addition, for an administrator's reset. */
export class UpdateAdminUserDto {
  @IsOptional()
  @EmailField()
  email?: string;

  @IsOptional()
  @FullNameField()
  full_name?: string;

  @IsOptional()
  @PasswordField()
  password?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
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
