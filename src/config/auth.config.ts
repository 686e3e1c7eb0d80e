import { registerAs } from '@nestjs/config';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { blankToUndefined, numberOrUnset, readEnv } from './env';

export const JWT_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

class AuthEnv {
  @IsOptional()
  @Transform(blankToUndefined)
  @IsString()
  SECRET_KEY?: string;

  @IsOptional()
  @Transform(blankToUndefined)
  @IsIn(JWT_ALGORITHMS, { message: `JWT_ALGORITHM must be one of ${JWT_ALGORITHMS.join(', ')}` })
  JWT_ALGORITHM?: JwtAlgorithm;

  @IsOptional()
  @Transform(numberOrUnset)
  @IsInt({ message: 'ACCESS_TOKEN_EXPIRE_MINUTES must be an integer' })
  @Min(1)
  @Max(60 * 24 * 30)
  ACCESS_TOKEN_EXPIRE_MINUTES?: number;

  @IsOptional()
  @Transform(numberOrUnset)
  @IsInt({ message: 'REFRESH_TOKEN_EXPIRE_DAYS must be an integer' })
  @Min(1)
  @Max(365)
  REFRESH_TOKEN_EXPIRE_DAYS?: number;

  @IsOptional()
  @Transform(blankToUndefined)
  @IsEmail({}, { message: 'FIRST_SUPERUSER_EMAIL must be an email address' })
  FIRST_SUPERUSER_EMAIL?: string;

  @IsOptional()
  @Transform(blankToUndefined)
  @Length(8, 128, { message: 'FIRST_SUPERUSER_PASSWORD must be 8 to 128 characters' })
  FIRST_SUPERUSER_PASSWORD?: string;
}

export const authConfig = registerAs('auth', () => {
  const env = readEnv(AuthEnv);
  if (Boolean(env.FIRST_SUPERUSER_EMAIL) !== Boolean(env.FIRST_SUPERUSER_PASSWORD)) {
    throw new Error(
      'Invalid environment configuration: set FIRST_SUPERUSER_EMAIL and FIRST_SUPERUSER_PASSWORD together',
    );
  }
  return {
    configuredSecretKey: env.SECRET_KEY ?? null,
    algorithm: env.JWT_ALGORITHM ?? 'HS256',
    accessTokenTtlSeconds: (env.ACCESS_TOKEN_EXPIRE_MINUTES ?? 30) * 60,
    refreshTokenTtlSeconds: (env.REFRESH_TOKEN_EXPIRE_DAYS ?? 7) * 24 * 60 * 60,
    firstSuperuser: env.FIRST_SUPERUSER_EMAIL
      ? { email: env.FIRST_SUPERUSER_EMAIL.toLowerCase(), password: env.FIRST_SUPERUSER_PASSWORD as string }
      : null,
    failedLoginLimit: 10,
    failedLoginWindowSeconds: 15 * 60,
  };
});
