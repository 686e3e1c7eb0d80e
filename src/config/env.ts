import { plainToInstance, TransformFnParams } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

/**
 * Validates one namespace's slice of the environment against a class-validator schema and
 * stops the boot with one line per bad variable, so a misconfigured deployment fails loudly.
 */
export function readEnv<T extends object>(schema: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const values = plainToInstance(schema, env, { enableImplicitConversion: false });
  const errors = validateSync(values, { skipMissingProperties: false, whitelist: false });
  if (errors.length > 0) {
    throw new Error(
      `Invalid environment configuration:\n${errors.map((error) => describe(error, env)).join('\n')}`,
    );
  }
  return values;
}

function describe(error: ValidationError, env: NodeJS.ProcessEnv): string {
  const reasons = Object.values(error.constraints ?? {}).join('; ');
  return `  - ${error.property}=${JSON.stringify(env[error.property])}: ${reasons}`;
}

/** Treats an empty string like an unset variable, as shells and .env files commonly produce them. */
export function blankToUndefined({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

/**
 * A numeric variable: blank or unset is undefined, anything else goes through Number() (NaN then
 * fails the integer/number check). Reads the raw value, because `@Type(() => Number)` would
 * already have turned a blank string into 0.
 */
export function numberOrUnset({ obj, key }: TransformFnParams): unknown {
  const raw: unknown = (obj as Record<string, unknown>)[key];
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return undefined;
  return Number(raw);
}
