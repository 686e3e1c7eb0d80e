import { InvalidFieldError } from '../../common/errors/domain-errors';
import { ValidationIssue } from '../../common/validation/validation-issue';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Printable ASCII, space included: what a client can put in a header without any encoding. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x20-\\x7E]+$';
const PRINTABLE_ASCII = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The location of every error about the key in a 422 body. */
export const IDEMPOTENCY_KEY_LOC = ['header', IDEMPOTENCY_KEY_HEADER];

/** The header's value, undefined without one; 422 at ["header", "Idempotency-Key"] when it is not a valid key. */
export function parseIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  // Node joins repeated headers with ", " for most names; an array would come from a repeated header it keeps apart.
  const key = Array.isArray(value) ? value.join(', ') : value;
  const issue = keyIssue(key);
  if (issue) throw new InvalidFieldError([{ loc: IDEMPOTENCY_KEY_LOC, ...issue }]);
  return key;
}

function keyIssue(key: string): Omit<ValidationIssue, 'loc'> | null {
  if (key.length === 0) {
    return {
      msg: 'String should have at least 1 character',
      type: 'string_too_short',
      ctx: { min_length: 1 },
    };
  }
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    return {
      msg: `String should have at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
      type: 'string_too_long',
      ctx: { max_length: IDEMPOTENCY_KEY_MAX_LENGTH },
    };
  }
  if (!PRINTABLE_ASCII.test(key)) {
    return {
      msg: `String should match pattern '${IDEMPOTENCY_KEY_PATTERN}'`,
      type: 'string_pattern_mismatch',
      ctx: { pattern: IDEMPOTENCY_KEY_PATTERN },
    };
  }
  return null;
}

/** 422 for a key that came before with another request (another body, route or method). */
export function keyReusedError(): InvalidFieldError {
  const error = 'this Idempotency-Key was already used for a different request';
  return new InvalidFieldError([
    { loc: IDEMPOTENCY_KEY_LOC, msg: `Value error, ${error}`, type: 'value_error', ctx: { error } },
  ]);
}
