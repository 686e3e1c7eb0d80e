import type { DomainErrorKind } from '../../src/common/errors/domain-errors';

/**
 * What the medium specs expect of a refused command, in one place: the domain error's kind and
 * detail, and, for invalid fields, each field's path within the command and the rule's message.
 * How a field problem is located (the `loc` the edge answers) is decided here alone.
 */

/** A rule the service enforces: the domain error's kind and its client-facing detail. */
export function refusal(kind: DomainErrorKind, detail: string) {
  return expect.objectContaining({ kind, detail });
}

/** One field broke a rule: `path` within the command (the body, or a CSV's rows), and the message. */
export function fieldProblem(path: (string | number)[], message: string | RegExp) {
  const msg =
    typeof message === 'string'
      ? `Value error, ${message}`
      : expect.stringMatching(new RegExp(`^Value error, ${message.source}`));
  return expect.objectContaining({ loc: ['body', ...path], msg });
}

/** The command was refused for exactly these field problems, in this order. */
export function invalidFields(...problems: ReturnType<typeof fieldProblem>[]) {
  return expect.objectContaining({ kind: 'invalid-input', issues: problems });
}
