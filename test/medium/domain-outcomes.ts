import type { DomainErrorKind } from '../../src/common/errors/domain-errors';

/**
 * What the medium specs expect of a refused command, in one place: the domain error's kind and
 * detail, and, for invalid fields, each field's path within the command and the rule's message.
 * Services name a field by its path within the command; the HTTP edge locates it (`loc`).
 */

/** A rule the service enforces: the domain error's kind and its client-facing detail. */
export function refusal(kind: DomainErrorKind, detail: string) {
  return expect.objectContaining({ kind, detail });
}

/** One field broke a rule: `path` within the command, and the rule's message (the reason alone). */
export function fieldProblem(path: (string | number)[], message: string | RegExp) {
  return expect.objectContaining({
    path,
    message: typeof message === 'string' ? message : expect.stringMatching(new RegExp(`^${message.source}`)),
  });
}

/** The command was refused for exactly these field problems, in this order. */
export function invalidFields(...problems: ReturnType<typeof fieldProblem>[]) {
  return expect.objectContaining({ kind: 'invalid-input', problems });
}

/**
 * A CSV import refused for one row's field: the import still locates its problems itself (the
 * row's place in the body, and Pydantic's wording), as the HTTP edge answers them.
 */
export function invalidCsvRow(path: (string | number)[], message: string) {
  return expect.objectContaining({
    kind: 'invalid-input',
    issues: [expect.objectContaining({ loc: ['body', ...path], msg: `Value error, ${message}` })],
  });
}
