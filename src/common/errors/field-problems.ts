import { DomainError } from './domain-errors';

/** A place inside a command: `['lots', 0, 'lot_id']`; `[]` is the command as a whole. */
export type FieldPath = (string | number)[];

/**
 * What is wrong with one field of a command, in the words of the module that checks it. Where the
 * command came from (the body, the query) and how a client is told (`loc`, Pydantic's wording) are
 * the HTTP edge's business: see `locatedIssues`.
 */
export interface FieldProblem {
  readonly path: FieldPath;
  /** Pydantic's type name; a rule of the module (`value_error`) unless given. */
  readonly type?: string;
  /**
   * For a `value_error`, the reason alone (`executed_at must not be in the future`); for any other
   * type, the whole message. A `missing` field needs none.
   */
  readonly message?: string;
  /** Facts a client can act on beside the message (the limit broken, the closest layouts). */
  readonly ctx?: Record<string, unknown>;
}

/**
 * One or more fields of a command are invalid (a 422): what services throw, with paths relative
 * to the command they were given.
 */
export class FieldProblems extends DomainError {
  readonly kind = 'invalid-input';

  constructor(readonly problems: FieldProblem[]) {
    super(
      problems.map((problem) => `${problem.path.join('.')}: ${problem.message ?? problem.type}`).join('; '),
    );
  }

  /** The common case: one field breaks one of the module's rules. */
  static invalid(path: FieldPath, reason: string): FieldProblems {
    return new FieldProblems([{ path, message: reason }]);
  }
}
