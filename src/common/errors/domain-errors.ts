import { listedIssues } from '../validation/listed-issues';
import type { ValidationIssue } from '../validation/validation-issue';

/**
 * What a failure means to the caller, independent of HTTP. Services throw these; the exception
 * filter alone turns each kind into a status and body (see `DOMAIN_ERROR_STATUS` there).
 */
export type DomainErrorKind =
  | 'not-found'
  | 'conflict'
  | 'rule-violation'
  | 'invalid-input'
  | 'unauthenticated'
  | 'forbidden'
  | 'rate-limited'
  | 'provider-unavailable'
  | 'not-configured';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;

  /** `detail` is the client-facing sentence, taken from `ErrorDetail`. */
  constructor(
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(detail, options);
    this.name = new.target.name;
  }
}

/** The thing asked for does not exist (or is not the caller's). */
export class NotFoundError extends DomainError {
  readonly kind = 'not-found';
}

/** The request collides with what is stored (a duplicate). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

/** Well-formed, but a business rule forbids it (deleting one's own account, a full watchlist). */
export class RuleViolationError extends DomainError {
  readonly kind = 'rule-violation';
}

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';
}

export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
}

/** Too many attempts; the caller may retry after `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  readonly kind = 'rate-limited';

  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(detail);
  }
}

/** A data provider failed for a reason that is not the caller's (the cause is logged, not sent). */
export class ProviderUnavailableError extends DomainError {
  readonly kind = 'provider-unavailable';
}

/** The feature needs configuration this deployment lacks (a vendor key); not retryable by the caller. */
export class NotConfiguredError extends DomainError {
  readonly kind = 'not-configured';
}

/**
 * One or more fields are invalid; each issue carries its field path (`loc`). At most
 * MAX_LISTED_ISSUES are kept, then one entry counting the rest (see `listedIssues`).
 */
export class InvalidFieldError extends DomainError {
  readonly kind = 'invalid-input';
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[]) {
    const listed = listedIssues(issues);
    super(listed.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '));
    this.issues = listed;
  }

  /** The common case: one field, a Pydantic-style `value_error`. */
  static valueError(loc: ValidationIssue['loc'], message: string): InvalidFieldError {
    return new InvalidFieldError([{ loc, msg: `Value error, ${message}`, type: 'value_error' }]);
  }
}
