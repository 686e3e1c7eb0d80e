import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';
import { listTooLong } from './pydantic-issues';
import { ValidationIssue } from './validation-issue';

type Loc = (string | number)[];
/** A DTO class, as class-validator and class-transformer key their metadata. */
export type DtoClass = abstract new (...args: never[]) => unknown;

const SIZE_CAP = 'arrayMaxSize';
const SCALAR_TYPES: unknown[] = [String, Number, Boolean, Date];

interface DtoFields {
  /** Each `@ArrayMaxSize` field with its cap, in declaration order. */
  caps: readonly { property: string; max: number }[];
  /** The fields holding a nested DTO (`@Type`) or a list of them, with its class. */
  nestedDtos: ReadonlyMap<string, DtoClass>;
}

/**
 * Read once per DTO class: the decorators' metadata is fixed once the class is defined, and
 * class-validator's lookup allocates anew on every call (per element of a list of DTOs, a fifth of
 * what a rebalance request with 50 targets allocated).
 */
const fieldsByDto = new WeakMap<DtoClass, DtoFields>();

function fieldsOf(dto: DtoClass): DtoFields {
  let known = fieldsByDto.get(dto);
  if (!known) {
    const rules = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
    const nestedDtos = new Map<string, DtoClass>();
    for (const property of new Set(rules.map((rule) => rule.propertyName))) {
      const nested = defaultMetadataStorage.findTypeMetadata(dto, property)?.typeFunction() as
        DtoClass | undefined;
      if (nested && !SCALAR_TYPES.includes(nested)) nestedDtos.set(property, nested);
    }
    known = {
      caps: rules
        .filter((rule) => rule.name === SIZE_CAP)
        .map((rule) => ({ property: rule.propertyName, max: rule.constraints[0] as number })),
      nestedDtos,
    };
    fieldsByDto.set(dto, known);
  }
  return known;
}

/** A DTO without lists or nested DTOs of its own, whose elements there is no need to visit. */
function isLeaf(dto: DtoClass): boolean {
  const { caps, nestedDtos } = fieldsOf(dto);
  return caps.length === 0 && nestedDtos.size === 0;
}

/**
 * The lists of a request value longer than the `@ArrayMaxSize` of their DTO field, found on the raw
 * value before class-transformer and class-validator see it: their cost per element is high enough
 * that a list of thousands of objects would block the event loop before its size was ever judged.
 * Descends into nested DTOs (`@Type`) and into the elements of lists within their cap.
 */
export function listCapIssues(value: unknown, dto: DtoClass, loc: Loc): ValidationIssue[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const fields = value as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const { caps, nestedDtos } = fieldsOf(dto);
  const overCap = new Set<string>();
  for (const { property, max } of caps) {
    if (!Object.hasOwn(fields, property)) continue;
    const list = fields[property];
    if (Array.isArray(list) && list.length > max && !overCap.has(property)) {
      overCap.add(property);
      issues.push({ loc: [...loc, property], ...listTooLong(max, list) });
    }
  }
  for (const [property, nested] of nestedDtos) {
    if (overCap.has(property) || !Object.hasOwn(fields, property) || isLeaf(nested)) continue;
    const child = fields[property];
    if (Array.isArray(child)) {
      child.forEach((element, index) =>
        issues.push(...listCapIssues(element, nested, [...loc, property, index])),
      );
    } else {
      issues.push(...listCapIssues(child, nested, [...loc, property]));
    }
  }
  return issues;
}
