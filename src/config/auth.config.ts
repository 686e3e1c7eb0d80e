import { registerAs } from '@nestjs/config';
import { Transform } from 'class-transformer';
import { IsEmail, IsOptional, Length } from 'class-validator';
import { blankToUndefined, IntVar, OneOfVar, readEnv, StringVar } from './env';

export const JWT_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

class AuthEnv {
  @StringVar()
  SECRET_KEY?: string;

  @OneOfVar(JWT_ALGORITHMS)
  JWT_ALGORITHM?: JwtAlgorithm;

  @IntVar({ min: 1, max: 60 * 24 * 30 })
  ACCESS_TOKEN_EXPIRE_MINUTES?: number;

  @IntVar({ min: 1, max: 365 })
  REFRESH_TOKEN_EXPIRE_DAYS?: number;

  @IntVar({ min: 0, max: 60 })
  REFRESH_REUSE_GRACE_SECONDS?: number;

  @IntVar({ min: 1, max: 3_650 })
  AUTH_SESSION_MAX_DAYS?: number;
  @OneOfVar(['true', 'false'])
  AUTH_REFRESH_COOKIE?: 'true' | 'false';

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
    refreshReuseGraceSeconds: env.REFRESH_REUSE_GRACE_SECONDS ?? 5,
    /** A session older than this no longer refreshes, however recently it was used. */
    sessionMaxAgeSeconds: (env.AUTH_SESSION_MAX_DAYS ?? 30) * 24 * 60 * 60,
    refreshCookie: env.AUTH_REFRESH_COOKIE === 'true',
    firstSuperuser: env.FIRST_SUPERUSER_EMAIL
      ? { email: env.FIRST_SUPERUSER_EMAIL.toLowerCase(), password: env.FIRST_SUPERUSER_PASSWORD as string }
      : null,
    failedLoginLimit: 10,
    failedLoginWindowSeconds: 15 * 60,
  };
});
