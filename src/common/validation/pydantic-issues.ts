import { getMetadataStorage, isEnum, isIn, isString, matches, ValidationError } from 'class-validator';
import { ValidationIssue } from './validation-issue';

type Loc = (string | number)[];
type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];

/**
 * Turns class-validator's error tree into Pydantic v2 style issues: one issue per failing field,
 * chosen by the same precedence Pydantic uses (missing, then type, then constraints), with its
 * `type`, wording and `ctx`. A list over its size cap is that one issue: its elements are not
 * reported, so the answer does not grow with the list.
 */
export function toPydanticIssues(
  errors: ValidationError[],
  parentLoc: Loc,
  parentIsArray = false,
): ValidationIssue[] {
  return errors.flatMap((error) => {
    const key = parentIsArray && /^\d+$/.test(error.property) ? Number(error.property) : error.property;
    const loc = [...parentLoc, key];
    const own = error.constraints ? issuesFor(error, loc) : [];
    if (error.constraints?.[SIZE_CAP] && Array.isArray(error.value)) return own;
    const children = error.children?.length
      ? toPydanticIssues(error.children, loc, Array.isArray(error.value))
      : [];
    return [...own, ...children];
  });
}

const TYPE_CHECKS = [
  'isDefined',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isArray',
  'isObject',
  'nestedValidation',
];
/** A list's size cap comes before any check of its elements. */
const SIZE_CAP = 'arrayMaxSize';
const CHOICE_CHECKS = ['isEnum', 'isIn'];

/** Element checks of `{ each: true }` rules, so a failing list item is reported at its index. */
const ELEMENT_CHECKS: Record<string, (element: unknown, args: unknown[]) => boolean> = {
  isString: (element) => isString(element),
  matches: (element, [pattern, modifiers]) =>
    typeof element === 'string' &&
    (pattern instanceof RegExp
      ? matches(element, pattern)
      : matches(element, String(pattern), modifiers as string)),
  isIn: (element, [allowed]) => isIn(element, allowed as unknown[]),
  isEnum: (element, [entity]) => isEnum(element, entity),
};

function issuesFor(error: ValidationError, loc: Loc): ValidationIssue[] {
  const constraints = error.constraints ?? {};
  const names = Object.keys(constraints);
  const value: unknown = error.value;

  if (names.includes('whitelistValidation')) {
    return [{ loc, msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }];
  }
  if (value === undefined) {
    return [{ loc, msg: 'Field required', type: 'missing' }];
  }
  const ordered = [
    ...TYPE_CHECKS.filter((name) => names.includes(name)),
    ...(names.includes(SIZE_CAP) ? [SIZE_CAP] : []),
    ...CHOICE_CHECKS.filter((name) => names.includes(name)),
    ...names.filter(
      (name) => !TYPE_CHECKS.includes(name) && name !== SIZE_CAP && !CHOICE_CHECKS.includes(name),
    ),
  ];
  const elementIssues = Array.isArray(value) ? listElementIssues(error, value, ordered, loc) : [];
  if (elementIssues.length) return elementIssues;
  const name = ordered[0];
  const args = constraintArgs(error, name);
  return [{ loc, ...describe(name, value, args, constraints[name]) }];
}

/**
 * Pydantic validates list items one by one: each failing item is one issue at its index, with the
 * first rule it breaks. Applies when the field's leading failure is a per-element rule.
 */
function listElementIssues(
  error: ValidationError,
  list: unknown[],
  orderedNames: string[],
  loc: Loc,
): ValidationIssue[] {
  const elementRules = orderedNames
    .map((name) => ({ name, metadata: constraintMetadata(error, name) }))
    .filter(({ name, metadata }) => metadata?.each && name in ELEMENT_CHECKS);
  if (!elementRules.length || elementRules[0].name !== orderedNames[0]) return [];
  return list.flatMap((element, index) => {
    const broken = elementRules.find(
      ({ name, metadata }) => !ELEMENT_CHECKS[name](element, metadata?.constraints ?? []),
    );
    if (!broken) return [];
    const args = broken.metadata?.constraints ?? [];
    return [
      {
        loc: [...loc, index],
        ...describe(broken.name, element, args, error.constraints?.[broken.name] ?? ''),
      },
    ];
  });
}

function describe(
  name: string,
  value: unknown,
  args: unknown[],
  message: string,
): Omit<ValidationIssue, 'loc'> {
  switch (name) {
    case 'isDefined':
      return { msg: 'Field required', type: 'missing' };
    case 'isString':
      return { msg: 'Input should be a valid string', type: 'string_type' };
    case 'isInt':
      if (typeof value === 'string' || Number.isNaN(value)) {
        return {
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          type: 'int_parsing',
        };
      }
      if (typeof value === 'number' && Number.isFinite(value)) {
        return {
          msg: 'Input should be a valid integer, got a number with a fractional part',
          type: 'int_from_float',
        };
      }
      return { msg: 'Input should be a valid integer', type: 'int_type' };
    case 'isNumber':
      if (typeof value === 'string' || Number.isNaN(value)) {
        return {
          msg: 'Input should be a valid number, unable to parse string as a number',
          type: 'float_parsing',
        };
      }
      return { msg: 'Input should be a valid number', type: 'float_type' };
    case 'isBoolean':
      if (typeof value === 'string') {
        return { msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing' };
      }
      return { msg: 'Input should be a valid boolean', type: 'bool_type' };
    case 'isArray':
      return { msg: 'Input should be a valid list', type: 'list_type' };
    case 'isObject':
    case 'nestedValidation':
      return {
        msg: 'Input should be a valid dictionary or object to extract fields from',
        type: 'model_attributes_type',
      };
    case 'isEnum':
    case 'isIn': {
      const allowed = name === 'isEnum' ? Object.values(args[0] as object) : (args[0] as unknown[]);
      const expected = quoteChoices(allowed.map(String));
      return { msg: `Input should be ${expected}`, type: 'enum', ctx: { expected } };
    }
    case 'min':
      return {
        msg: `Input should be greater than or equal to ${args[0]}`,
        type: 'greater_than_equal',
        ctx: { ge: args[0] },
      };
    case 'max':
      return {
        msg: `Input should be less than or equal to ${args[0]}`,
        type: 'less_than_equal',
        ctx: { le: args[0] },
      };
    case 'isPositive':
      return { msg: 'Input should be greater than 0', type: 'greater_than', ctx: { gt: 0 } };
    case 'minLength':
      return stringTooShort(args[0] as number);
    case 'maxLength':
      return stringTooLong(args[0] as number);
    case 'isLength': {
      const [min, max] = args as [number, number | undefined];
      const length = typeof value === 'string' ? value.length : 0;
      return length < min ? stringTooShort(min) : stringTooLong(max ?? length);
    }
    case 'isNotEmpty':
      return stringTooShort(1);
    case 'arrayMinSize':
      return listLength('too_short', 'at least', args[0] as number, value);
    case 'arrayMaxSize':
      return listTooLong(args[0] as number, value);
    case 'isEmail':
      return {
        msg: 'value is not a valid email address: The email address is not valid.',
        type: 'value_error',
        ctx: { reason: 'The email address is not valid.' },
      };
    case 'matches': {
      const pattern = args[0] instanceof RegExp ? args[0].source : String(args[0]);
      return {
        msg: `String should match pattern '${pattern}'`,
        type: 'string_pattern_mismatch',
        ctx: { pattern },
      };
    }
    case 'isIso8601':
    case 'isDateString':
      return { msg: 'Input should be a valid datetime or date', type: 'datetime_parsing' };
    default:
      return { msg: `Value error, ${message}`, type: 'value_error', ctx: { error: message } };
  }
}

function stringTooShort(min: number): Omit<ValidationIssue, 'loc'> {
  return {
    msg: `String should have at least ${min} character${min === 1 ? '' : 's'}`,
    type: 'string_too_short',
    ctx: { min_length: min },
  };
}

export function stringTooLong(max: number): Omit<ValidationIssue, 'loc'> {
  return {
    msg: `String should have at most ${max} character${max === 1 ? '' : 's'}`,
    type: 'string_too_long',
    ctx: { max_length: max },
  };
}

/** Pydantic's `too_long` for a list over its cap. */
export function listTooLong(max: number, value: unknown): Omit<ValidationIssue, 'loc'> {
  return listLength('too_long', 'at most', max, value);
}

function listLength(
  type: 'too_short' | 'too_long',
  bound: 'at least' | 'at most',
  limit: number,
  value: unknown,
): Omit<ValidationIssue, 'loc'> {
  const actual = Array.isArray(value) ? value.length : 0;
  const key = type === 'too_short' ? 'min_length' : 'max_length';
  return {
    msg: `List should have ${bound} ${limit} item${limit === 1 ? '' : 's'} after validation, not ${actual}`,
    type,
    ctx: { field_type: 'List', [key]: limit, actual_length: actual },
  };
}

/** Pydantic's wording for a choice list: `'a', 'b' or 'c'`. */
export function quoteChoices(values: string[]): string {
  const quoted = values.map((value) => `'${value}'`);
  return quoted.length <= 1
    ? quoted.join('')
    : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

function constraintArgs(error: ValidationError, name: string): unknown[] {
  return constraintMetadata(error, name)?.constraints ?? [];
}

function constraintMetadata(error: ValidationError, name: string): ValidationMetadata | undefined {
  const target = error.target?.constructor;
  if (!target) return undefined;
  return getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .find((entry) => entry.propertyName === error.property && (entry.name === name || entry.type === name));
}
