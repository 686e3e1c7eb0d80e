import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Fields = Record<string, unknown>;

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
  const storage = getMetadataStorage();
  const rules = storage.getTargetValidationMetadatas(object.constructor, schema!, false, false);
  if (rules.length === 0) return false;
  const rulesByProperty = storage.groupByPropertyName(rules);
  for (const key in object) {
    if (Object.hasOwn(object, key) && !rulesByProperty[key]?.length) return false;
  }
  for (const property in rulesByProperty) {
    if (!propertyPasses(object, property, rulesByProperty[property])) return false;
  }
  return true;
}

function propertyPasses(object: object, property: string, rules: ValidationMetadata[]): boolean {
  const value = (object as Fields)[property];
  let validated = true;
  for (const rule of rules) {
    if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      const applies = rule.constraints[0] as (object: object, value: unknown) => boolean;
      if (!applies(object, value)) validated = false;
    } else if (
      rule.type !== ValidationTypes.CUSTOM_VALIDATION &&
      rule.type !== ValidationTypes.NESTED_VALIDATION &&
      rule.type !== ValidationTypes.WHITELIST
    ) {
      return false;
    }
  }
  if (!validated) return true;
  for (const rule of rules) {
    if (rule.type === ValidationTypes.CUSTOM_VALIDATION && !constraintsPass(object, value, rule))
      return false;
  }
  for (const rule of rules) {
    if (rule.type === ValidationTypes.NESTED_VALIDATION && value !== undefined && !nestedPasses(value, rule))
      return false;
  }
  return true;
}

function constraintsPass(object: object, value: unknown, rule: ValidationMetadata): boolean {
  if (rule.validateIf && !rule.validateIf(object, value)) return true;
  const each = rule.each && (Array.isArray(value) || value instanceof Set || value instanceof Map);
  if (each && !Array.isArray(value)) return false;
  for (const constraint of getMetadataStorage().getTargetValidatorConstraints(rule.constraintCls)) {
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
      for (const item of value as unknown[]) if (!isTrue(validator.validate(item, args))) return false;
    } else if (!isTrue(validator.validate(value, args))) {
      return false;
    }
  }
  return true;
}

/** A list's elements each as the value itself; a missing element is skipped, as class-validator does. */
function nestedPasses(value: unknown, rule: ValidationMetadata): boolean {
  if (Array.isArray(value)) {
    for (const item of value) if (item !== undefined && !nestedPasses(item, rule)) return false;
    return true;
  }
  if (value instanceof Set || value instanceof Map || !(value instanceof Object)) return false;
  return passesRules(value, typeof rule.target === 'string' ? rule.target : rule.target.name);
}

/** A thenable is class-validator's asynchronous path: not sure. */
const isTrue = (result: unknown) =>
  Boolean(result) && typeof (result as { then?: unknown }).then !== 'function';
