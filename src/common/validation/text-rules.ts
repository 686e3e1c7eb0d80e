import type { FieldPath, FieldProblem } from '../errors/field-problems';
import { ValidationIssue } from './validation-issue';

type Loc = (string | number)[];

const NUL_CHARACTER_MESSAGE = 'the text must not contain the NUL character (U+0000)';
/** In a `u` regular expression a surrogate matches only when it is not half of a pair. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;

/** PostgreSQL text cannot hold U+0000, so such a string is refused at its field. */
export function nulCharacterProblem(path: FieldPath): FieldProblem {
  return { path, message: NUL_CHARACTER_MESSAGE, ctx: { error: NUL_CHARACTER_MESSAGE } };
}

/** The same refusal from a reader at the edge, which locates its issues itself. */
export function nulCharacterIssue(loc: Loc): ValidationIssue {
  return {
    loc,
    msg: `Value error, ${NUL_CHARACTER_MESSAGE}`,
    type: 'value_error',
    ctx: { error: NUL_CHARACTER_MESSAGE },
  };
}

/** Pydantic's answer to a string that is not valid Unicode (JSON allows an unpaired `\ud800`). */
function loneSurrogateIssue(loc: Loc): ValidationIssue {
  return {
    loc,
    msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
    type: 'string_unicode',
  };
}

function textIssue(text: string, loc: Loc): ValidationIssue | null {
  if (text.includes('\u0000')) return nulCharacterIssue(loc);
  if (LONE_SURROGATE.test(text)) return loneSurrogateIssue(loc);
  return null;
}

type Pending = { value: unknown; loc: Loc } | { issue: ValidationIssue };

/**
 * Every string (and object key) in a parsed request value that the database could not store as
 * text, in document order. Walks with an explicit stack, so no input can exhaust the call stack.
 */
export function findUnstorableText(value: unknown, loc: Loc): ValidationIssue[] {
  // Most values are one string (a path or query parameter) or nothing at all.
  if (typeof value === 'string') {
    const issue = textIssue(value, loc);
    return issue ? [issue] : [];
  }
  if (typeof value !== 'object' || value === null || !mayHoldUnstorableText(value)) return [];
  const issues: ValidationIssue[] = [];
  const pending: Pending[] = [{ value, loc }];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if ('issue' in current) {
      issues.push(current.issue);
      continue;
    }
    if (typeof current.value === 'string') {
      const issue = textIssue(current.value, current.loc);
      if (issue) issues.push(issue);
      continue;
    }
    if (typeof current.value !== 'object' || current.value === null) continue;
    const children: Pending[] = Array.isArray(current.value)
      ? current.value.map((item, index) => ({ value: item, loc: [...current.loc, index] }))
      : Object.entries(current.value).map(([key, item]) => {
          const keyIssue = textIssue(key, [...current.loc, key]);
          return keyIssue ? { issue: keyIssue } : { value: item, loc: [...current.loc, key] };
        });
    // In reverse, so that they come off the stack in document order (and no spread of a huge list).
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]);
  }
  return issues;
}

/** Any surrogate, paired or not. */
const SURROGATE = /[\uD800-\uDFFF]/;
const isSuspect = (text: string) => text.includes('\u0000') || SURROGATE.test(text);

/**
 * Whether any string or key in the value holds a NUL or a surrogate: a look at every string that
 * allocates nothing, so that the usual value, holding neither, is not walked again with a location
 * for each of its parts (a tenth of what a rebalance request with 50 targets allocated).
 */
function mayHoldUnstorableText(value: object): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (isSuspect(current)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (typeof current === 'object' && current !== null) {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        if (isSuspect(key)) return true;
        pending.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * A copy of a request value in which no string holds a lone surrogate: each becomes U+FFFD, and
 * an object key holding one is left out (it is reported at that key). Validators then never see
 * ill-formed Unicode (validator.js's email check throws `URIError` on it); the issues
 * `findUnstorableText` reported stand in for whatever they say about those fields.
 */
export function withWellFormedText(value: unknown): unknown {
  const root: { value?: unknown } = {};
  const pending: { value: unknown; assign: (copy: unknown) => void }[] = [
    { value, assign: (copy) => (root.value = copy) },
  ];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (typeof current.value === 'string') {
      current.assign(current.value.replace(LONE_SURROGATES, '\uFFFD'));
    } else if (Array.isArray(current.value)) {
      const copy: unknown[] = new Array<unknown>(current.value.length);
      current.assign(copy);
      current.value.forEach((item, index) => pending.push({ value: item, assign: (c) => (copy[index] = c) }));
    } else if (typeof current.value === 'object' && current.value !== null) {
      const copy: Record<string, unknown> = {};
      current.assign(copy);
      for (const [key, item] of Object.entries(current.value)) {
        if (!LONE_SURROGATE.test(key)) pending.push({ value: item, assign: (c) => (copy[key] = c) });
      }
    } else {
      current.assign(current.value);
    }
  }
  return root.value;
}
