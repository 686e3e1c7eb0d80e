import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';
import { listTooLong } from './pydantic-issues';
import { ValidationIssue } from './validation-issue';

type Loc = (string | number)[];
/** A DTO class, as class-validator and class-transformer key their metadata. */
export type DtoClass = abstract new (...args: never[]) => unknown;

const SIZE_CAP = 'arrayMaxSize';
const SCALAR_TYPES: unknown[] = [String, Number, Boolean, Date];

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
  const rules = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const overCap = new Set<string>();
  for (const rule of rules) {
    if (rule.name !== SIZE_CAP || !Object.hasOwn(fields, rule.propertyName)) continue;
    const list = fields[rule.propertyName];
    const max = rule.constraints[0] as number;
    if (Array.isArray(list) && list.length > max && !overCap.has(rule.propertyName)) {
      overCap.add(rule.propertyName);
      issues.push({ loc: [...loc, rule.propertyName], ...listTooLong(max, list) });
    }
  }
  for (const property of new Set(rules.map((rule) => rule.propertyName))) {
    if (overCap.has(property) || !Object.hasOwn(fields, property)) continue;
    const nested = defaultMetadataStorage.findTypeMetadata(dto, property)?.typeFunction() as
      DtoClass | undefined;
    if (!nested || SCALAR_TYPES.includes(nested)) continue;
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
