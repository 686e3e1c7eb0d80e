import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

interface PaginationFieldOptions {
  /** Documented in Swagger; the property's initial value is what applies when the parameter is absent. */
  default: number;
  /** Documents the field as `integer` instead of the `number` its TypeScript type gives. */
  documentAsInteger?: boolean;
}

/** Query text to a number; a blank value is not a number (422 int_parsing, as Pydantic answers `?limit=`). */
const QueryNumber = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? (value.trim() === '' ? Number.NaN : Number(value)) : value,
  );

const integerType = (options: PaginationFieldOptions) =>
  options.documentAsInteger ? { type: 'integer' as const } : {};

/** An optional integer query parameter `limit` of 1 to `max` (422: int_parsing, greater_than_equal, less_than_equal). */
export const LimitField = (options: PaginationFieldOptions & { max: number }) =>
  applyDecorators(
    ApiPropertyOptional({
      ...integerType(options),
      default: options.default,
      minimum: 1,
      maximum: options.max,
    }),
    IsOptional(),
    QueryNumber(),
    IsInt(),
    Min(1),
    Max(options.max),
  );

/** PostgreSQL's integer range: far beyond any list, and never an overflow of the database's OFFSET. */
export const MAX_SKIP = 2_147_483_647;

/**
 * An optional integer query parameter `skip` of 0 to MAX_SKIP (422: int_parsing,
 * greater_than_equal, less_than_equal).
 */
export const SkipField = (options: PaginationFieldOptions) =>
  applyDecorators(
    ApiPropertyOptional({ ...integerType(options), default: options.default, minimum: 0, maximum: MAX_SKIP }),
    IsOptional(),
    QueryNumber(),
    IsInt(),
    Min(0),
    Max(MAX_SKIP),
  );

/** A required free-text `query` parameter: trimmed, then 1 to `maxLength` characters. */
export const SearchQueryField = (options: { maxLength: number; description: string }) =>
  applyDecorators(
    ApiProperty({ example: 'apple', description: options.description }),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value)),
    IsString(),
    MinLength(1),
    MaxLength(options.maxLength),
  );

/** The spellings Pydantic reads as booleans; anything else stays a string and fails IsBoolean (bool_parsing). */
const QUERY_BOOLEANS: Record<string, boolean> = {
  true: true,
  t: true,
  yes: true,
  y: true,
  on: true,
  '1': true,
  false: false,
  f: false,
  no: false,
  n: false,
  off: false,
  '0': false,
};

/** An optional boolean query parameter, false when absent (422 bool_parsing for other spellings). */
export const BooleanQueryField = (options: { description: string }) =>
  applyDecorators(
    ApiPropertyOptional({ default: false, description: options.description }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? (QUERY_BOOLEANS[value.trim().toLowerCase()] ?? value) : value,
    ),
    IsBoolean(),
  );
