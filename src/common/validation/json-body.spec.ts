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
const withKeys = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, key) => [`k${key}`, 0]));

describe('jsonBudgetExcess', () => {
  it('counts a top-level object or list as depth 1 and scalars as 0', () => {
    expect(jsonBudgetExcess(1, depthOnly(0))).toBeNull();
    expect(jsonBudgetExcess({}, depthOnly(0))).toBe('Nesting deeper than 0 levels');
    expect(jsonBudgetExcess({ a: [1] }, depthOnly(2))).toBeNull();
    expect(jsonBudgetExcess({ a: [1] }, depthOnly(1))).toBe('Nesting deeper than 1 levels');
  });

  it('accepts MAX_JSON_DEPTH levels and refuses one more', () => {
    expect(jsonBudgetExcess(nested(MAX_JSON_DEPTH), JSON_BODY_BUDGET)).toBeNull();
    expect(jsonBudgetExcess(nested(MAX_JSON_DEPTH + 1), JSON_BODY_BUDGET)).toBe(
      'Nesting deeper than 32 levels',
    );
  });

  it('judges 100,000 levels without exhausting the stack', () => {
    expect(jsonBudgetExcess(nested(100_000), JSON_BODY_BUDGET)).toBe('Nesting deeper than 32 levels');
  });

  it('finds the deep branch among wide shallow ones', () => {
    expect(jsonBudgetExcess([...new Array(1000).fill([1]), nested(40)], JSON_BODY_BUDGET)).toBe(
      'Nesting deeper than 32 levels',
    );
  });

  it('accepts 64 keys in one object and refuses 65, at any depth', () => {
    expect(jsonBudgetExcess(withKeys(64), JSON_BODY_BUDGET)).toBeNull();
    expect(jsonBudgetExcess(withKeys(65), JSON_BODY_BUDGET)).toBe('More than 64 keys in one object');
    expect(jsonBudgetExcess({ a: [{ b: withKeys(65) }] }, JSON_BODY_BUDGET)).toBe(
      'More than 64 keys in one object',
    );
  });

  it('counts keys and list elements of the whole body against 10,000 values', () => {
    const lots = Array.from({ length: 1000 }, (_, id) => ({ lot_id: id + 1, quantity: 1 }));
    expect(jsonBudgetExcess({ lots }, JSON_BODY_BUDGET)).toBeNull();
    expect(jsonBudgetExcess({ list: new Array(10_000).fill(0) }, JSON_BODY_BUDGET)).toBe(
      'More than 10000 values in the body',
    );
    const spread = Array.from({ length: 200 }, () => withKeys(50));
    expect(jsonBudgetExcess(spread, JSON_BODY_BUDGET)).toBe('More than 10000 values in the body');
  });
});
