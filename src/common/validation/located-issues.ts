import type { FieldProblem } from '../errors/field-problems';
import { listedIssues } from './listed-issues';
import { stringTooLong } from './pydantic-issues';
import type { ValidationIssue, ValidationLocation } from './validation-issue';

/**
 * The part of a request a service's command was read from: a GET carries its fields in the query,
 * every other method in its body.
 */
export function commandLocation(method: string): ValidationLocation {
  return method === 'GET' || method === 'HEAD' ? 'query' : 'body';
}

/**
 * The one mapping from a service's field problems to the 422 list: each path placed under the part
 * of the request it came from, worded as Pydantic v2 words it, and capped like every 422.
 */
export function locatedIssues(problems: FieldProblem[], location: ValidationLocation): ValidationIssue[] {
  return listedIssues(problems.map((problem) => locatedIssue(problem, location)));
}

function locatedIssue(problem: FieldProblem, location: ValidationLocation): ValidationIssue {
  const { path, type = 'value_error', ctx } = problem;
  const loc = [location, ...path];
  const msg = problemWording(problem);
  return ctx ? { loc, msg, type, ctx } : { loc, msg, type };
}

/** A problem's `msg` as Pydantic v2 words it (a report that quotes a 422's wording uses it too). */
export function problemWording({ type = 'value_error', message, ctx }: FieldProblem): string {
  return type === 'value_error' ? `Value error, ${message}` : (message ?? pydanticWording(type, ctx));
}

/** Pydantic's message for the types a module names without words of its own. */
function pydanticWording(type: string, ctx: FieldProblem['ctx']): string {
  switch (type) {
    case 'missing':
      return 'Field required';
    case 'string_type':
      return 'Input should be a valid string';
    case 'string_too_long':
      return stringTooLong(Number(ctx?.max_length)).msg;
    case 'datetime_parsing':
      return 'Input should be a valid datetime or date';
    default:
      return type;
  }
}
