import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { MAX_FORM_FIELDS } from './form-encoded';
import { DtoClass, listCapIssues } from './list-caps';
import { toPydanticIssues } from './pydantic-issues';
import { findUnstorableText, withWellFormedText } from './text-rules';
import { InvalidFieldError } from '../errors/domain-errors';
import { ValidationIssue, ValidationLocation } from './validation-issue';

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
   * What an empty query, found valid, became for each query DTO, when every field it set is a
   * primitive (nothing a handler could change in place): such a request, the usual read, gets a
   * new instance with those values without class-transformer and class-validator looking up the
   * class's metadata again (about a tenth of a cached portfolio read's CPU, and of the news list's,
   * whose query has a default limit).
   */
  private readonly emptyQueryResults = new WeakMap<object, Readonly<Record<string, unknown>>>();

  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidUnknownValues: true,
      validationError: { target: true, value: true },
      exceptionFactory: (errors) => new ClassValidatorErrors(errors),
    });
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
    const emptyQuery = location === 'query' && isDto && !metadata.data && isEmptyObject(value);
    const known = emptyQuery ? this.emptyQueryResults.get(metadata.metatype!) : undefined;
    if (known) return Object.assign(Object.create(metadata.metatype!.prototype as object) as object, known);
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
    if (emptyQuery) {
      const fields = primitiveFields(result);
      if (fields) this.emptyQueryResults.set(metadata.metatype!, fields);
    }
    return result;
  }
}

/** The object's own fields when each is a primitive (or undefined), else null. */
function primitiveFields(value: unknown): Readonly<Record<string, unknown>> | null {
  if (typeof value !== 'object' || value === null) return null;
  const fields: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if ((typeof field === 'object' && field !== null) || typeof field === 'function') return null;
    fields[key] = field;
  }
  return Object.freeze(fields);
}

/**
 * An object without a value: `{}`, or an instance nothing was set on (its declared fields are
 * `undefined` own properties when the class defines its fields).
 */
function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (const key in value) {
    if (Object.hasOwn(value, key) && (value as Record<string, unknown>)[key] !== undefined) return false;
  }
  return true;
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
