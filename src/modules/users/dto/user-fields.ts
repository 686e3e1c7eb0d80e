import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, Length, MaxLength, MinLength } from 'class-validator';
import { canonicalEmail } from '../users.service';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

const canonicalised = Transform(({ value }: { value: unknown }) =>
  typeof value === 'string' ? canonicalEmail(value) : value,
);

/** The shared field rules of every DTO that carries account fields. */
export const EmailField = () =>
  applyDecorators(
    ApiProperty({ example: 'ada@example.com', format: 'email', maxLength: 320 }),
    canonicalised,
    IsString(),
    MaxLength(320),
    IsEmail(),
  );

export const PasswordField = () =>
  applyDecorators(
    ApiProperty({
      example: 'correct horse battery staple',
      minLength: PASSWORD_MIN_LENGTH,
      maxLength: PASSWORD_MAX_LENGTH,
      writeOnly: true,
    }),
    IsString(),
    MinLength(PASSWORD_MIN_LENGTH),
    MaxLength(PASSWORD_MAX_LENGTH),
  );

export const FullNameField = () =>
  applyDecorators(
    ApiProperty({ example: 'Ada Lovelace', minLength: 1, maxLength: 255 }),
    IsString(),
    Length(1, 255),
  );
