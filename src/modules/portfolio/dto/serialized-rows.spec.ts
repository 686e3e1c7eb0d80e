import { liveCacheCounters } from '../../../common/metrics/cache-counters';
import { SERIALIZED_ROWS_BYTES, SerializedRows } from './serialized-rows';

const counters = () => liveCacheCounters().find((each) => each.cache === 'portfolio-serialized-rows')!;

describe('SerializedRows', () => {
  const sut = new SerializedRows<{ id: number }, { row_id: number }>((item) => ({ row_id: item.id }));

  it('keeps the UTF-8 JSON of a frozen list once, in memory of its own, counted against a bound in bytes', () => {
    const list = Object.freeze([{ id: 1 }, { id: 2 }]);
    const before = { size: counters().size(), misses: counters().misses, hits: counters().hits };

    const first = sut.of(list);
    const again = sut.of(list);

    expect(first.toString()).toBe('[{"row_id":1},{"row_id":2}]');
    expect(again).toBe(first);
    expect(first.byteOffset === 0 && first.buffer.byteLength === first.length).toBe(true);
    expect([counters().misses - before.misses, counters().hits - before.hits]).toEqual([1, 1]);
    expect(counters().size() - before.size).toBeGreaterThan(first.length);
    expect(counters().capacity).toBe(SERIALIZED_ROWS_BYTES);
  });

  it('stays within its bound however small the entries', () => {
    for (let index = 0; index < 200_000; index += 1) sut.of(Object.freeze([]));

    expect(counters().size()).toBeLessThanOrEqual(SERIALIZED_ROWS_BYTES);
    expect(counters().evictions).toBeGreaterThan(0);
  });

  it('serializes a list that may still change anew, without keeping it', () => {
    const list = [{ id: 1 }];
    const misses = counters().misses;
    sut.of(list);
    list.push({ id: 2 });

    expect(sut.of(list).toString()).toBe('[{"row_id":1},{"row_id":2}]');
    expect(counters().misses).toBe(misses);
  });
});
