import { existsSync } from 'node:fs';

/**
 * The working directory's `.env`, which ConfigModule would read later, loaded before the boot
 * checks so that they judge the same values. Variables already set in the environment win.
 */
export function loadEnvFile(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
