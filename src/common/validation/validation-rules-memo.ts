import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type RuleStorage = ReturnType<typeof getMetadataStorage>;
type RulesByProperty = Record<string, ValidationMetadata[]>;

const memoized = new WeakSet<RuleStorage>();

/**
 * Keeps class-validator's answer to "the rules of this class" until a decorator registers a new
 * rule. It works that answer out again for every object it validates, filtering its whole store
 * and testing every decorated class for inheritance: for the 50 nested targets of a rebalance body
 * that was a tenth of the route's CPU, with arrays left for the garbage collector. The rules and
 * their grouping by property are handed out frozen (class-validator and its callers only read
 * them); calls that name validation groups, which this service does not use, are not kept. Bounded
 * by the decorated classes, which are all loaded at boot.
 */
export function memoizeValidationRules(storage: RuleStorage = getMetadataStorage()): void {
  if (memoized.has(storage)) return;
  memoized.add(storage);
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const register = storage.addValidationMetadata.bind(storage);
  let rulesByTarget = new Map<unknown, Map<string, ValidationMetadata[]>>();
  let groupedRules = new WeakMap<ValidationMetadata[], RulesByProperty>();

  storage.addValidationMetadata = (metadata) => {
    rulesByTarget = new Map();
    groupedRules = new WeakMap();
    register(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups?.length) return lookUp(target, schema, always, strictGroups, groups);
    const options = `${schema}\u0000${always}\u0000${strictGroups}`;
    let byOptions = rulesByTarget.get(target);
    if (!byOptions) rulesByTarget.set(target, (byOptions = new Map()));
    let rules = byOptions.get(options);
    if (!rules) {
      rules = Object.freeze(lookUp(target, schema, always, strictGroups, groups)) as ValidationMetadata[];
      byOptions.set(options, rules);
    }
    return rules;
  };
  storage.groupByPropertyName = (rules) => {
    if (!Object.isFrozen(rules)) return group(rules);
    let grouped = groupedRules.get(rules);
    if (!grouped) {
      grouped = group(rules);
      for (const list of Object.values(grouped)) Object.freeze(list);
      groupedRules.set(rules, Object.freeze(grouped));
    }
    return grouped;
  };
}
