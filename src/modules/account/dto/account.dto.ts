import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import { EmailField, FullNameField, PasswordField } from '../../users';

/** A password the caller types to confirm who they are: checked against the stored hash, not the policy. */
const CurrentPasswordField = (description: string) =>
  applyDecorators(
    ApiProperty({ example: 'correct horse battery staple', writeOnly: true, description }),
    IsString(),
    MaxLength(1024),
  );

export class ChangePasswordDto {
  @CurrentPasswordField('The password in use now')
  current_password: string;

  @PasswordField()
  new_password: string;
}

/** May be left out; an explicit null is validated like any value. */
const OmittableNotNull = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

export class UpdateMeDto {
  @ApiPropertyOptional()
  @OmittableNotNull()
  @FullNameField()
  full_name?: string;

  @ApiPropertyOptional({ description: 'A new email (login) needs `current_password`' })
  @OmittableNotNull()
  @EmailField()
  email?: string;

  @ApiPropertyOptional({
    writeOnly: true,
    description: 'The password in use now; required when `email` changes',
    example: 'correct horse battery staple',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  current_password?: string;
}

export class DeleteMeDto {
  @CurrentPasswordField('The password in use now, to confirm the deletion')
  password: string;
}

export class SessionIdParams {
  @ApiProperty({ format: 'uuid', example: '3f2b8c1e-9d4a-4e7b-8a61-2c5d9e0f1a7b' })
  @IsUUID()
  session_id: string;
}
