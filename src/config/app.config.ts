import { registerAs } from '@nestjs/config';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { blankToUndefined, numberOrUnset, readEnv } from './env';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

class AppEnv {
  @IsOptional()
  @Transform(numberOrUnset)
  @IsInt({ message: 'PORT must be an integer' })
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @Transform(blankToUndefined)
  @IsString()
  DATA_DIR?: string;

  @IsOptional()
  @Transform(blankToUndefined)
  @IsString()
  CORS_ORIGINS?: string;

  @IsOptional()
  @Transform(blankToUndefined)
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL?: (typeof LOG_LEVELS)[number];

  @IsOptional()
  @Transform(blankToUndefined)
  @IsIn(NODE_ENVS, { message: `NODE_ENV must be one of ${NODE_ENVS.join(', ')}` })
  NODE_ENV?: (typeof NODE_ENVS)[number];
}

export const appConfig = registerAs('app', () => {
  const env = readEnv(AppEnv);
  return {
    port: env.PORT ?? 8000,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './.data'),
    corsOrigins: parseOrigins(env.CORS_ORIGINS),
    logLevel: env.LOG_LEVEL ?? 'info',
    nodeEnv: env.NODE_ENV ?? 'development',
    version: packageVersion(),
  };
});

/** `*` allows every origin; otherwise a comma-separated list; unset disables CORS. */
function parseOrigins(raw: string | undefined): string[] | true | false {
  if (!raw) return false;
  if (raw.trim() === '*') return true;
  return raw
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
}

/** src/config and dist/config sit at the same depth below the package root. */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
