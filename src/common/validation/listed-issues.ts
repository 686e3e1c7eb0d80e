import { ValidationIssue } from './validation-issue';

/** Most issues one 422 lists; the rest are counted in a last entry. */
export const MAX_LISTED_ISSUES = 50;
const TOO_MANY_ERRORS = 'too_many_errors';

/**
 * The issues a 422 sends: all of them up to MAX_LISTED_ISSUES; beyond, the first MAX_LISTED_ISSUES
 * and one more entry of the same shape that says how many were left out, so that an answer never
 * grows with the size of a bad request. That entry's `loc` is the place of the first one left out.
 * Lists that were cut already (merged by a later check) are counted whole.
 */
export function listedIssues(issues: ValidationIssue[]): ValidationIssue[] {
  const real = issues.filter((issue) => issue.type !== TOO_MANY_ERRORS);
  const omittedEarlier = issues
    .filter((issue) => issue.type === TOO_MANY_ERRORS)
    .reduce((sum, issue) => sum + Number(issue.ctx?.omitted ?? 0), 0);
  const omitted = Math.max(0, real.length - MAX_LISTED_ISSUES) + omittedEarlier;
  if (omitted === 0) return real;
  const firstLeftOut = real[MAX_LISTED_ISSUES] ?? issues.find((issue) => issue.type === TOO_MANY_ERRORS)!;
  return [
    ...real.slice(0, MAX_LISTED_ISSUES),
    {
      loc: firstLeftOut.loc.slice(0, 1),
      msg: `${omitted} more issues not listed`,
      type: TOO_MANY_ERRORS,
      ctx: { listed: Math.min(real.length, MAX_LISTED_ISSUES), omitted },
    },
  ];
}
