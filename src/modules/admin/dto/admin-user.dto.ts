import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
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
  @ApiPropertyOptional({ default: 0, minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  skip: number = 0;

  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 1000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit: number = 100;
}

export class UserIdParams {
  @ApiProperty({ example: 1 })
  @Type(() => Number)
  @IsInt()
  user_id: number;
}
