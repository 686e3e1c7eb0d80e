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
