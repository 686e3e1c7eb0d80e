import { registerAs } from '@nestjs/config';
import { IsOptional, IsString } from 'class-validator';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IntVar, OneOfVar, readEnv, StringVar } from './env';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

class AppEnv {
  @IntVar({ min: 0, max: 65535 })
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @StringVar()
  DATA_DIR?: string;

  @StringVar()
  CORS_ORIGINS?: string;

  @OneOfVar(LOG_LEVELS)
  LOG_LEVEL?: (typeof LOG_LEVELS)[number];

  @OneOfVar(NODE_ENVS)
  NODE_ENV?: (typeof NODE_ENVS)[number];

  @StringVar()
  TRUST_PROXY?: string;

  @OneOfVar(['true', 'false'])
  DOCS_ENABLED?: 'true' | 'false';
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
    prettyLogs: (env.NODE_ENV ?? 'development') === 'development' && Boolean(process.stdout.isTTY),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    docsEnabled: env.DOCS_ENABLED !== 'false',
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

/**
 * Whose X-Forwarded-For to believe for the client address (the login throttle keys on it):
 * nobody by default; `true` for any proxy; a number of proxy hops; or a comma list of proxy
 * addresses or CIDR ranges.
 */
function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (!raw || raw.trim().toLowerCase() === 'false') return false;
  if (raw.trim().toLowerCase() === 'true') return true;
  return /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw.trim();
}

/** src/config and dist/config sit at the same depth below the package root. */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
