import { liveCacheCounters } from '../metrics/cache-counters';
import { STALE_MARK_TTL_MS } from './consistent-cache';
import { MemoryConsistentCache } from './memory-consistent-cache';

describe('MemoryConsistentCache#peek', () => {
  let now: number;
  let sut: MemoryConsistentCache;
  // The newest counters of the name are this test's cache's.
  const counters = () =>
    liveCacheCounters()
      .filter((each) => each.cache === 'consistent-cache')
      .at(-1)!;

  beforeEach(() => {
    now = 0;
    sut = new MemoryConsistentCache(10, () => now);
  });

  it('answers what a read filled, counting a hit, and nothing for an unknown key', async () => {
    await sut.read('auth:user:7', async () => ({ isActive: true }), 1_000);
    expect(sut.peek('auth:user:7')).toEqual({ isActive: true });
    expect(sut.peek('auth:user:8')).toBeUndefined();
    expect([counters().hits, counters().misses]).toEqual([1, 1]);
  });

  it('keeps a cached null apart from a missing entry', async () => {
    await sut.read('auth:user:9', async () => null, 1_000);
    expect(sut.peek('auth:user:9')).toBeNull();
  });

  it('answers nothing once the entry expired or a writer marked it stale, so the caller reads', async () => {
    await sut.read('session:a', async () => 'active:7', 1_000);
    now = 1_000;
    expect(sut.peek('session:a')).toBeUndefined();
    await sut.read('session:b', async () => 'active:7', 60_000);
    await sut.markStale('session:b');
    expect(sut.peek('session:b')).toBeUndefined();
    now += STALE_MARK_TTL_MS;
    expect(sut.peek('session:b')).toBeUndefined();
  });

  it('answers a final value a writer put', async () => {
    await sut.putFinal('session:c', 'revoked', 60_000);
    expect(sut.peek('session:c')).toBe('revoked');
  });
});
