import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { CountedLru } from '../metrics/cache-counters';
import { MAX_FORM_FIELDS } from './form-encoded';
import { DtoClass, listCapIssues } from './list-caps';
import { toPydanticIssues } from './pydantic-issues';
import { findUnstorableText, withWellFormedText } from './text-rules';
import { InvalidFieldError } from '../errors/domain-errors';
import { ValidationIssue, ValidationLocation } from './validation-issue';
import { passesRules } from './rules-pass';
import { memoizeValidationRules } from './validation-rules-memo';

class ClassValidatorErrors extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('validation failed');
  }
}

const LOCATIONS: Partial<Record<ArgumentMetadata['type'], ValidationLocation>> = {
  body: 'body',
  query: 'query',
  param: 'path',
};
const NON_DTO_TYPES: unknown[] = [String, Boolean, Number, Array, Object, Buffer, Date];

/**
 * The global pipe: class-validator DTOs for body, query and path, failures reported as 422 with
 * `loc` starting at the place the value came from.
 */
@Injectable()
export class PydanticValidationPipe extends ValidationPipe {
  /**
   * What each query, found valid, became, by its DTO class and the query's own text, when every
   * field set is a primitive or a list of them (transforms and validators are functions of the
   * query alone): the same query again, the usual read (an empty one above all), gets a new
   * instance with those values without class-transformer and class-validator looking up the
   * class's metadata again (a tenth of a cached portfolio read's CPU, 6 % of a batch quote's).
   * Bounded in characters of the queries kept.
   */
  private readonly validQueries = new CountedLru<string, Readonly<Record<string, unknown>>>('valid-queries', {
    maxSize: VALID_QUERIES_MAX_CHARS,
    sizeCalculation: (_fields, key) => key.length,
  });

  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidUnknownValues: true,
      validationError: { target: true, value: true },
      exceptionFactory: (errors) => new ClassValidatorErrors(errors),
    });
    memoizeValidationRules();
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A custom decorator's value (the caller, from the guard) is not validated: ValidationPipe
    // would hand it back as it is, two awaits later, on every authenticated route.
    if (metadata.type === 'custom') return value;
    const location = LOCATIONS[metadata.type];
    const isDto = typeof metadata.metatype === 'function' && !NON_DTO_TYPES.includes(metadata.metatype);
    if (location === 'body' && isDto) {
      // No body at all reads as an empty object, so each required field is reported by name.
      if (value === undefined) value = {};
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new InvalidFieldError([
          {
            loc: ['body'],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            type: 'model_attributes_type',
          },
        ]);
      }
    }
    const queryKey =
      location === 'query' && isDto && !metadata.data ? textOfQuery(metadata.metatype!, value) : undefined;
    const known = queryKey === undefined ? undefined : this.validQueries.get(queryKey);
    if (known) return instanceWith(metadata.metatype!, known);
    if (location === 'query' && !metadata.data) refuseCrowdedQuery(value);
    if (location && isDto) {
      const overCap = listCapIssues(value, metadata.metatype as DtoClass, [location]);
      if (overCap.length > 0) throw new InvalidFieldError(overCap);
    }
    const textIssues = location ? unstorableText(value, location, metadata.data) : [];
    // Checked here, once, before any transform or validator runs on the value.
    if (textIssues.length > 0) value = withWellFormedText(value);
    let result: unknown;
    try {
      result = await super.transform(value, metadata);
    } catch (error) {
      if (error instanceof ClassValidatorErrors && location) {
        throw new InvalidFieldError(withTextIssues(toPydanticIssues(error.errors, [location]), textIssues));
      }
      throw error;
    }
    if (textIssues.length > 0) throw new InvalidFieldError(textIssues);
    if (queryKey !== undefined) {
      const fields = plainFields(result);
      if (fields) this.validQueries.set(queryKey, fields);
    }
    return result;
  }

  /** class-validator is asked only when the rules do not surely pass (rules-pass.ts). */
  protected override validate(
    object: object,
    validatorOptions?: ValidatorOptions,
  ): Promise<ValidationError[]> | ValidationError[] {
    return passesRules(object) ? [] : super.validate(object, validatorOptions);
  }
}

const VALID_QUERIES_MAX_CHARS = 256 * 1024;
/** A longer query is validated every time rather than kept. */
const MAX_KEPT_QUERY_CHARS = 1024;
const dtoIds = new WeakMap<object, number>();
let lastDtoId = 0;

/**
 * The key of a query to a DTO class: the class (by an id of its own) and the query's fields as
 * the parser gave them, each a string or a list of strings; undefined for anything else or for a
 * long query.
 */
function textOfQuery(metatype: object, query: unknown): string | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  for (const field of Object.values(query)) {
    if (
      typeof field !== 'string' &&
      !(Array.isArray(field) && field.every((each) => typeof each === 'string'))
    )
      return undefined;
  }
  const text = JSON.stringify(query);
  if (text.length > MAX_KEPT_QUERY_CHARS) return undefined;
  let id = dtoIds.get(metatype);
  if (id === undefined) {
    id = ++lastDtoId;
    dtoIds.set(metatype, id);
  }
  return `${id}:${text}`;
}

const isPrimitive = (value: unknown) =>
  value === null || (typeof value !== 'object' && typeof value !== 'function');

/** The object's own fields when each is a primitive (or undefined) or a list of them, else null. */
function plainFields(value: unknown): Readonly<Record<string, unknown>> | null {
  if (typeof value !== 'object' || value === null) return null;
  const fields: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (Array.isArray(field) && field.every(isPrimitive)) fields[key] = Object.freeze([...field]);
    else if (isPrimitive(field)) fields[key] = field;
    else return null;
  }
  return Object.freeze(fields);
}

/** A new instance of the class with those fields (lists copied: a handler may change its own). */
function instanceWith(metatype: object, fields: Readonly<Record<string, unknown>>): object {
  const instance = Object.create((metatype as { prototype: object }).prototype) as Record<string, unknown>;
  for (const [key, field] of Object.entries(fields))
    instance[key] = Array.isArray(field) ? [...field] : field;
  return instance;
}

/**
 * The query's share of the body budget (docs/input-limits.md): a query string is read like a form,
 * and class-transformer's cost grows with the square of its parameters.
 */
function refuseCrowdedQuery(query: unknown): void {
  if (typeof query !== 'object' || query === null || Object.keys(query).length <= MAX_FORM_FIELDS) return;
  const error = `more than ${MAX_FORM_FIELDS} parameters in the query`;
  throw new InvalidFieldError([
    { loc: ['query'], msg: `Value error, ${error}`, type: 'value_error', ctx: { error } },
  ]);
}

/**
 * Checked on every body, query and path value, whatever its type, so that no string the database
 * cannot store gets past the edge. A raw text body (CSV) is left to its parser, which reports
 * such a cell at its row and column.
 */
function unstorableText(value: unknown, location: ValidationLocation, name?: string): ValidationIssue[] {
  if (location === 'body' && !name && typeof value === 'string') return [];
  return findUnstorableText(value, name ? [location, name] : [location]);
}

/** A text issue replaces the field's other issue at the same `loc`; the rest are added after. */
function withTextIssues(issues: ValidationIssue[], textIssues: ValidationIssue[]): ValidationIssue[] {
  const key = (issue: ValidationIssue) => JSON.stringify(issue.loc);
  const textByLoc = new Map(textIssues.map((issue) => [key(issue), issue]));
  const merged = issues.map((issue) => textByLoc.get(key(issue)) ?? issue);
  const used = new Set(merged.map(key));
  return [...merged, ...textIssues.filter((issue) => !used.has(key(issue)))];
}
