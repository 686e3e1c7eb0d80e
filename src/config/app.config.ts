import { registerAs } from '@nestjs/config';
import { IsOptional, IsString, Matches } from 'class-validator';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IntVar, OneOfVar, readEnv, StringVar } from './env';
import { IsOriginList, parseOrigins } from './origins';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;
const MIN_METRICS_TOKEN_LENGTH = 16;

class AppEnv {
  @IntVar({ min: 0, max: 65535 })
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @StringVar()
  DATA_DIR?: string;

  @StringVar()
  @IsOriginList()
  CORS_ORIGINS?: string;

  @OneOfVar(LOG_LEVELS)
  LOG_LEVEL?: (typeof LOG_LEVELS)[number];

  @OneOfVar(NODE_ENVS)
  NODE_ENV?: (typeof NODE_ENVS)[number];

  @StringVar()
  @Matches(/^(?!\s*true\s*$)/i, {
    message:
      'TRUST_PROXY=true would trust a client-chosen X-Forwarded-For: give the number of proxy hops or the proxy addresses',
  })
  TRUST_PROXY?: string;

  @OneOfVar(['true', 'false'])
  DOCS_ENABLED?: 'true' | 'false';

  @IntVar({ min: 1_000, max: 600_000 })
  REQUEST_TIMEOUT_MS?: number;

  @IntVar({ min: 0, max: 600_000 })
  SHUTDOWN_DELAY_MS?: number;

  @IntVar({ min: 0, max: 600_000 })
  SHUTDOWN_DRAIN_TIMEOUT_MS?: number;

  @StringVar()
  METRICS_TOKEN?: string;

  @IntVar({ min: 1, max: 65535 })
  METRICS_PORT?: number;
}

export const appConfig = registerAs('app', () => {
  const env = readEnv(AppEnv);
  const nodeEnv = env.NODE_ENV ?? 'development';
  const metricsToken = env.METRICS_TOKEN ?? null;
  const metricsPort = env.METRICS_PORT ?? null;
  // Checked here rather than by a decorator, whose message would quote the value.
  if (metricsToken !== null && metricsToken.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new Error(
      `Invalid environment configuration: METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters`,
    );
  }
  if (metricsPort !== null && metricsPort === (env.PORT ?? 8000)) {
    throw new Error('Invalid environment configuration: METRICS_PORT must differ from PORT');
  }
  return {
    port: env.PORT ?? 8000,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './.data'),
    corsOrigins: parseOrigins(env.CORS_ORIGINS),
    logLevel: env.LOG_LEVEL ?? 'info',
    nodeEnv,
    prettyLogs: (env.NODE_ENV ?? 'development') === 'development' && Boolean(process.stdout.isTTY),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    docsEnabled: env.DOCS_ENABLED !== 'false',
    version: packageVersion(),
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS ?? 30_000,
    shutdownDelayMs: env.SHUTDOWN_DELAY_MS ?? 0,
    shutdownDrainTimeoutMs: env.SHUTDOWN_DRAIN_TIMEOUT_MS ?? 25_000,
    metrics: {
      /** Required as a bearer token wherever /metrics is served, when set. */
      token: metricsToken,
      /** A listener of its own for /metrics, on HOST; the application port then does not serve it. */
      port: metricsPort,
      /** Open on the application port only outside production, unless a token guards it. */
      onAppPort: metricsPort === null && (metricsToken !== null || nodeEnv !== 'production'),
    },
  };
});

/**
 * Whose X-Forwarded-For to believe for the client address (the login throttle and rate limits key
 * on it): nobody by default; a number of proxy hops; or a comma list of proxy addresses or CIDR
 * ranges. Never `true`: the left-most entry, which any client can write, would be believed.
 */
function parseTrustProxy(raw: string | undefined): false | number | string {
  if (!raw || raw.trim().toLowerCase() === 'false') return false;
  return /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw.trim();
}

/** src/config and dist/config sit at the same depth below the package root. */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
