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
 * Why a JSON text exceeds the budget, or null when it fits (a top-level object or list is depth 1).
 * Runs on the raw text before JSON.parse: parsing an object of 120,000 keys alone takes a few
 * hundred milliseconds of the event loop, and class-transformer's key handling after it is
 * quadratic. One pass over the characters, no value built, stopping at the first excess. A text that
 * is not JSON is left to the parser to refuse.
 */
export function jsonBudgetExcess(text: string, budget: JsonBudget): string | null {
  /** Per open object: its keys so far; per open list: its elements so far, and whether one is due. */
  const open: { object: boolean; members: number; awaiting: boolean }[] = [];
  let values = 0;
  const countMember = (container: (typeof open)[number]): string | null => {
    container.members += 1;
    values += 1;
    if (container.object && container.members > budget.maxKeysPerObject) {
      return `More than ${budget.maxKeysPerObject} keys in one object`;
    }
    return values > budget.maxValues ? `More than ${budget.maxValues} values in the body` : null;
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (char === SPACE || char === TAB || char === LINE_FEED || char === CARRIAGE_RETURN) continue;
    const parent = open[open.length - 1];
    if (parent && !parent.object && parent.awaiting && char !== CLOSE_LIST && char !== COMMA) {
      parent.awaiting = false;
      const excess = countMember(parent);
      if (excess) return excess;
    }
    if (char === QUOTE) {
      index = endOfString(text, index);
    } else if (char === OPEN_OBJECT || char === OPEN_LIST) {
      open.push({ object: char === OPEN_OBJECT, members: 0, awaiting: true });
      if (open.length > budget.maxDepth) return `Nesting deeper than ${budget.maxDepth} levels`;
    } else if (char === CLOSE_OBJECT || char === CLOSE_LIST) {
      open.pop();
    } else if (char === COLON && parent?.object) {
      const excess = countMember(parent);
      if (excess) return excess;
    } else if (char === COMMA && parent && !parent.object) {
      parent.awaiting = true;
    }
  }
  return null;
}

/** The index of the quote that closes the string opening at `start` (or the text's end). */
function endOfString(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (char === BACKSLASH) index += 1;
    else if (char === QUOTE) return index;
  }
  return text.length;
}

const [SPACE, TAB, LINE_FEED, CARRIAGE_RETURN] = [0x20, 0x09, 0x0a, 0x0d];
const [QUOTE, BACKSLASH, COLON, COMMA] = [0x22, 0x5c, 0x3a, 0x2c];
const [OPEN_OBJECT, CLOSE_OBJECT, OPEN_LIST, CLOSE_LIST] = [0x7b, 0x7d, 0x5b, 0x5d];
