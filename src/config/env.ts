import { plainToInstance, Transform, TransformFnParams } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  validateSync,
  ValidationError,
} from 'class-validator';

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

// The variable shapes several namespaces share. Each one is optional and treats a blank value as
// unset; its messages name the variable through class-validator's `$property` token.

/**
 * Applies decorators bottom first, as if written one above the other, so class-validator reports
 * a variable's failed checks in the order the boot error has always listed them.
 */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}

export const StringVar = (): PropertyDecorator =>
  stacked(IsOptional(), Transform(blankToUndefined), IsString());

export const OneOfVar = (values: readonly string[]): PropertyDecorator =>
  stacked(
    IsOptional(),
    Transform(blankToUndefined),
    IsIn(values, { message: `$property must be one of ${values.join(', ')}` }),
  );

/** An integer within the bounds given (class-validator's default messages for the bounds). */
export const IntVar = (bounds: { min?: number; max?: number } = {}): PropertyDecorator =>
  stacked(
    IsOptional(),
    Transform(numberOrUnset),
    IsInt({ message: '$property must be an integer' }),
    ...(bounds.min === undefined ? [] : [Min(bounds.min)]),
    ...(bounds.max === undefined ? [] : [Max(bounds.max)]),
  );

const HTTP_URL = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

/** An http(s) URL; a host without a TLD (localhost, a container name) is fine. */
export const HttpUrlVar = (): PropertyDecorator =>
  stacked(
    IsOptional(),
    Transform(blankToUndefined),
    IsUrl(HTTP_URL, { message: '$property must be an http(s) URL' }),
  );
