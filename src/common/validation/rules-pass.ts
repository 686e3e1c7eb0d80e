import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Fields = Record<string, unknown>;
type Condition = (object: object, value: unknown) => boolean;

/** A property's rules sorted by the step of class-validator's executor that applies them. */
interface PropertyRules {
  property: string;
  conditions: Condition[];
  constraints: ValidationMetadata[];
  nested: ValidationMetadata[];
}

/** null: a rule this check is not sure of. */
type ClassRules = { properties: readonly PropertyRules[]; names: ReadonlySet<string> } | null;

/**
 * Sorted once per rules array: the validation rules memo hands out the same frozen array for a
 * class until a rule is registered (validation-rules-memo.ts).
 */
const sortedRules = new WeakMap<readonly ValidationMetadata[], ClassRules>();

/**
 * Whether class-validator would find nothing wrong with `object`, an instance class-transformer
 * built, under the pipe's options (whitelist, forbidUnknownValues, no groups, nothing skipped).
 * It reads the same rules and calls the same constraint functions, in the order class-validator's
 * executor does, without the executor's bookkeeping: that builds an error object for every
 * property and every list element it visits, valid or not (for the 50 targets of a rebalance body,
 * 290 KB a request and most of the pipe's time). `false` means "not sure", never "invalid": the
 * pipe then asks class-validator, so every error, and every property whitelisting strips, still
 * comes from it. Not sure of: a property without rules, `@IsDefined`, promise rules, async
 * constraints, sets and maps.
 */
export function passesRules(object: object, schema?: string): boolean {
  const rules = getMetadataStorage().getTargetValidationMetadatas(object.constructor, schema!, false, false);
  if (rules.length === 0) return false;
  const sorted = rulesOfClass(rules);
  if (!sorted) return false;
  for (const key in object) {
    if (Object.hasOwn(object, key) && !sorted.names.has(key)) return false;
  }
  const { properties } = sorted;
  for (let index = 0; index < properties.length; index += 1) {
    if (!propertyPasses(object, properties[index])) return false;
  }
  return true;
}

function rulesOfClass(rules: readonly ValidationMetadata[]): ClassRules {
  let sorted = sortedRules.get(rules);
  if (sorted === undefined) {
    sorted = sortRules(rules);
    if (Object.isFrozen(rules)) sortedRules.set(rules, sorted);
  }
  return sorted;
}

function sortRules(rules: readonly ValidationMetadata[]): ClassRules {
  const byProperty = new Map<string, PropertyRules>();
  for (const rule of rules) {
    let property = byProperty.get(rule.propertyName);
    if (!property) {
      property = { property: rule.propertyName, conditions: [], constraints: [], nested: [] };
      byProperty.set(rule.propertyName, property);
    }
    switch (rule.type) {
      case ValidationTypes.CONDITIONAL_VALIDATION:
        property.conditions.push(rule.constraints[0] as Condition);
        break;
      case ValidationTypes.CUSTOM_VALIDATION:
        property.constraints.push(rule);
        break;
      case ValidationTypes.NESTED_VALIDATION:
        property.nested.push(rule);
        break;
      case ValidationTypes.WHITELIST:
        break;
      default:
        return null;
    }
  }
  return { properties: [...byProperty.values()], names: new Set(byProperty.keys()) };
}

function propertyPasses(object: object, rules: PropertyRules): boolean {
  const value = (object as Fields)[rules.property];
  let validated = true;
  for (let index = 0; index < rules.conditions.length; index += 1) {
    if (!rules.conditions[index](object, value)) validated = false;
  }
  if (!validated) return true;
  for (let index = 0; index < rules.constraints.length; index += 1) {
    if (!constraintsPass(object, value, rules.constraints[index])) return false;
  }
  if (value === undefined) return true;
  for (let index = 0; index < rules.nested.length; index += 1) {
    if (!nestedPasses(value, rules.nested[index])) return false;
  }
  return true;
}

function constraintsPass(object: object, value: unknown, rule: ValidationMetadata): boolean {
  if (rule.validateIf && !rule.validateIf(object, value)) return true;
  const each = rule.each && (Array.isArray(value) || value instanceof Set || value instanceof Map);
  if (each && !Array.isArray(value)) return false;
  const constraints = getMetadataStorage().getTargetValidatorConstraints(rule.constraintCls);
  for (let index = 0; index < constraints.length; index += 1) {
    const constraint = constraints[index];
    if (constraint.async) return false;
    const validator = constraint.instance;
    const args: ValidationArguments = {
      targetName: object.constructor.name,
      property: rule.propertyName,
      object,
      value,
      constraints: rule.constraints,
    };
    if (each) {
      const items = value as unknown[];
      for (let item = 0; item < items.length; item += 1) {
        if (!isTrue(validator.validate(items[item], args))) return false;
      }
    } else if (!isTrue(validator.validate(value, args))) {
      return false;
    }
  }
  return true;
}

/** A list's elements each as the value itself; a missing element is skipped, as class-validator does. */
function nestedPasses(value: unknown, rule: ValidationMetadata): boolean {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      if (item !== undefined && !nestedPasses(item, rule)) return false;
    }
    return true;
  }
  if (value instanceof Set || value instanceof Map || !(value instanceof Object)) return false;
  return passesRules(value, typeof rule.target === 'string' ? rule.target : rule.target.name);
}

/** A thenable is class-validator's asynchronous path: not sure. */
const isTrue = (result: unknown) =>
  Boolean(result) && typeof (result as { then?: unknown }).then !== 'function';
