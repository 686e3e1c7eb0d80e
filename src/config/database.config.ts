import { registerAs } from '@nestjs/config';
import { Transform } from 'class-transformer';
import { IsOptional, Matches } from 'class-validator';
import { blankToUndefined, readEnv } from './env';

class DatabaseEnv {
  @IsOptional()
  @Transform(blankToUndefined)
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;
}

export const databaseConfig = registerAs('database', () => {
  const env = readEnv(DatabaseEnv);
  return { url: env.DATABASE_URL ?? null };
});
