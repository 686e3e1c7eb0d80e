import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MIN_SECRET_LENGTH = 32;
const WEAK_SECRETS = ['secret', 'changeme', 'change-me', 'your-secret-key', 'secret_key', 'password'];

/**
 * The JWT signing secret. Production must configure a strong SECRET_KEY; development generates
 * one once and keeps it in DATA_DIR so tokens survive restarts.
 */
export function resolveSigningKey(options: {
  configured: string | null;
  production: boolean;
  dataDir: string;
}): string {
  const { configured, production, dataDir } = options;
  if (configured) {
    if (production && isWeak(configured)) {
      throw new Error(
        `SECRET_KEY is too weak for production: use at least ${MIN_SECRET_LENGTH} random characters (e.g. openssl rand -hex 32)`,
      );
    }
    return configured;
  }
  if (production) {
    throw new Error('SECRET_KEY must be set when NODE_ENV=production (e.g. openssl rand -hex 32)');
  }
  const file = join(dataDir, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const generated = randomBytes(48).toString('base64url');
  writeFileSync(file, generated, { mode: 0o600 });
  chmodSync(file, 0o600);
  return generated;
}

function isWeak(secret: string): boolean {
  return (
    secret.length < MIN_SECRET_LENGTH ||
    WEAK_SECRETS.includes(secret.toLowerCase()) ||
    new Set(secret).size < 8
  );
}
