import { ValidationIssue } from './validation-issue';

/** Deepest nesting of arrays and objects a JSON body may have; the deepest real body has 4. */
export const MAX_JSON_DEPTH = 32;
/** Most keys one JSON object may have; the widest real body (the preferences) has 16. */
export const MAX_JSON_KEYS_PER_OBJECT = 64;
/**
 * Most values (object members plus array elements) a whole JSON body may hold; the largest real
 * body, a sell naming its 1,000 lots, has 3,000 or so.
 */
export const MAX_JSON_VALUES = 10_000;

/** FastAPI's answer to a body that is not acceptable JSON, with the reason in `ctx.error`. */
export function jsonDecodeIssue(error: string): ValidationIssue {
  return { loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error } };
}

export interface JsonBudget {
  maxDepth: number;
  maxKeysPerObject: number;
  maxValues: number;
}

export const JSON_BODY_BUDGET: JsonBudget = {
  maxDepth: MAX_JSON_DEPTH,
  maxKeysPerObject: MAX_JSON_KEYS_PER_OBJECT,
  maxValues: MAX_JSON_VALUES,
};

/**
 * Why a parsed JSON value exceeds the budget, or null when it fits (a top-level object is depth 1).
 * Runs before any recursive or quadratic code (class-transformer) sees the value: it walks with an
 * explicit stack, counts each object's keys before visiting them, and stops at the first excess, so
 * its own cost is linear in the part of the value it has to look at.
 */
export function jsonBudgetExcess(value: unknown, budget: JsonBudget): string | null {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  let values = 0;
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (typeof current.value !== 'object' || current.value === null) continue;
    if (current.depth > budget.maxDepth) return `Nesting deeper than ${budget.maxDepth} levels`;
    const children = Array.isArray(current.value) ? current.value : Object.keys(current.value);
    if (!Array.isArray(current.value) && children.length > budget.maxKeysPerObject) {
      return `More than ${budget.maxKeysPerObject} keys in one object`;
    }
    values += children.length;
    if (values > budget.maxValues) return `More than ${budget.maxValues} values in the body`;
    const members: unknown[] = Array.isArray(current.value)
      ? current.value
      : Object.values(current.value as object);
    for (const child of members) {
      if (typeof child === 'object' && child !== null)
        pending.push({ value: child, depth: current.depth + 1 });
    }
  }
  return null;
}
