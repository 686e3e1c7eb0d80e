import { MAX_JSON_DEPTH, nestingDepthExceeds } from './json-body';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
};

describe('nestingDepthExceeds', () => {
  it('counts a top-level object or list as depth 1 and scalars as 0', () => {
    expect(nestingDepthExceeds(1, 0)).toBe(false);
    expect(nestingDepthExceeds({}, 0)).toBe(true);
    expect(nestingDepthExceeds({ a: [1] }, 2)).toBe(false);
    expect(nestingDepthExceeds({ a: [1] }, 1)).toBe(true);
  });

  it('accepts MAX_JSON_DEPTH levels and refuses one more', () => {
    expect(nestingDepthExceeds(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestingDepthExceeds(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('judges 100,000 levels without exhausting the stack', () => {
    expect(nestingDepthExceeds(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('finds the deep branch among wide shallow ones', () => {
    expect(nestingDepthExceeds([...new Array(1000).fill([1]), nested(40)], MAX_JSON_DEPTH)).toBe(true);
  });
});
