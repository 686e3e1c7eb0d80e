import { ValidationIssue } from './validation-issue';

/** Deepest nesting of arrays and objects a JSON body may have; the deepest real body has 4. */
export const MAX_JSON_DEPTH = 32;

/** FastAPI's answer to a body that is not acceptable JSON, with the reason in `ctx.error`. */
export function jsonDecodeIssue(error: string): ValidationIssue {
  return { loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error } };
}

/**
 * Whether arrays and objects nest deeper than `maxDepth` (a top-level object is depth 1). Walks
 * with an explicit stack: the point is to refuse what would overflow the call stack later.
 */
export function nestingDepthExceeds(value: unknown, maxDepth: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (typeof current.value !== 'object' || current.value === null) continue;
    if (current.depth > maxDepth) return true;
    for (const child of Object.values(current.value)) {
      if (typeof child === 'object' && child !== null)
        pending.push({ value: child, depth: current.depth + 1 });
    }
  }
  return false;
}
