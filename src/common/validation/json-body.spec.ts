import { JSON_BODY_BUDGET, jsonBudgetExcess, JsonBudget, MAX_JSON_DEPTH } from './json-body';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
};
const depthOnly = (maxDepth: number): JsonBudget => ({
  maxDepth,
  maxKeysPerObject: Infinity,
  maxValues: Infinity,
});
const text = (value: unknown) => JSON.stringify(value);
const withKeys = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, key) => [`k${key}`, 0]));

describe('jsonBudgetExcess', () => {
  it('counts no key, element or nesting inside strings, escaped quotes included', () => {
    const tricky = JSON.stringify({ a: 'x", "b": [[[{"c": 1}]]], "\\"', b: ['[', '{', ':', ','] });
    expect(jsonBudgetExcess(tricky, { maxDepth: 2, maxKeysPerObject: 2, maxValues: 6 })).toBeNull();
    expect(jsonBudgetExcess(tricky, { maxDepth: 2, maxKeysPerObject: 2, maxValues: 5 })).toBe(
      'More than 5 values in the body',
    );
  });

  it('counts a top-level object or list as depth 1 and scalars as 0', () => {
    expect(jsonBudgetExcess(text(1), depthOnly(0))).toBeNull();
    expect(jsonBudgetExcess(text({}), depthOnly(0))).toBe('Nesting deeper than 0 levels');
    expect(jsonBudgetExcess(text({ a: [1] }), depthOnly(2))).toBeNull();
    expect(jsonBudgetExcess(text({ a: [1] }), depthOnly(1))).toBe('Nesting deeper than 1 levels');
  });

  it('accepts MAX_JSON_DEPTH levels and refuses one more', () => {
    expect(jsonBudgetExcess(text(nested(MAX_JSON_DEPTH)), JSON_BODY_BUDGET)).toBeNull();
    expect(jsonBudgetExcess(text(nested(MAX_JSON_DEPTH + 1)), JSON_BODY_BUDGET)).toBe(
      'Nesting deeper than 32 levels',
    );
  });

  it('judges 100,000 levels without exhausting the stack', () => {
    expect(jsonBudgetExcess('['.repeat(100_000) + ']'.repeat(100_000), JSON_BODY_BUDGET)).toBe(
      'Nesting deeper than 32 levels',
    );
  });

  it('finds the deep branch among wide shallow ones', () => {
    expect(jsonBudgetExcess(text([...new Array(1000).fill([1]), nested(40)]), JSON_BODY_BUDGET)).toBe(
      'Nesting deeper than 32 levels',
    );
  });

  it('accepts 64 keys in one object and refuses 65, at any depth', () => {
    expect(jsonBudgetExcess(text(withKeys(64)), JSON_BODY_BUDGET)).toBeNull();
    expect(jsonBudgetExcess(text(withKeys(65)), JSON_BODY_BUDGET)).toBe('More than 64 keys in one object');
    expect(jsonBudgetExcess(text({ a: [{ b: withKeys(65) }] }), JSON_BODY_BUDGET)).toBe(
      'More than 64 keys in one object',
    );
  });

  it('counts keys and list elements of the whole body against 10,000 values', () => {
    const lots = Array.from({ length: 1000 }, (_, id) => ({ lot_id: id + 1, quantity: 1 }));
    expect(jsonBudgetExcess(text({ lots }), JSON_BODY_BUDGET)).toBeNull();
    expect(jsonBudgetExcess(text({ list: new Array(10_000).fill(0) }), JSON_BODY_BUDGET)).toBe(
      'More than 10000 values in the body',
    );
    const spread = Array.from({ length: 200 }, () => withKeys(50));
    expect(jsonBudgetExcess(text(spread), JSON_BODY_BUDGET)).toBe('More than 10000 values in the body');
  });
});
