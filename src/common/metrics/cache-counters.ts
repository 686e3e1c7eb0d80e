import { LRUCache } from 'lru-cache';

const live = new Set<WeakRef<CacheCounters>>();

/**
 * Hits, misses and evictions of one in-process cache, with its size and bound, for /metrics
 * (`cache_requests_total`, `cache_evictions_total`, `cache_entries`, `cache_capacity`). Counting is
 * two additions per lookup; the figures are read only when scraped, summed over the live caches of
 * a name. Kept by the cache's owner and forgotten with it.
 */
export class CacheCounters {
  hits = 0;
  misses = 0;
  evictions = 0;

  constructor(
    readonly cache: string,
    /** What the bound counts: entries, or rows, or bytes as the cache weighs its entries. */
    readonly size: () => number,
    readonly capacity: number,
  ) {
    live.add(new WeakRef(this));
  }

  lookup(found: boolean): void {
    if (found) this.hits += 1;
    else this.misses += 1;
  }
}

/** The caches alive now. */
export function liveCacheCounters(): CacheCounters[] {
  const counters: CacheCounters[] = [];
  for (const reference of live) {
    const each = reference.deref();
    if (each) counters.push(each);
    else live.delete(reference);
  }
  return counters;
}

/**
 * An LRU whose lookups (`get`) and evictions are counted under `name`; its bound is `max` entries,
 * or `maxSize` in the unit its `sizeCalculation` weighs.
 */
export class CountedLru<K extends NonNullable<unknown>, V extends NonNullable<unknown>> extends LRUCache<
  K,
  V
> {
  readonly counters: CacheCounters;

  constructor(
    name: string,
    options: LRUCache.Options<K, V, unknown> & ({ max: number } | { maxSize: number }),
  ) {
    let counters: CacheCounters | null = null;
    super({
      ...options,
      disposeAfter: (value, key, reason) => {
        if (reason === 'evict' && counters) counters.evictions += 1;
        options.disposeAfter?.(value, key, reason);
      },
    });
    const bound = 'maxSize' in options && options.maxSize ? options.maxSize : (options.max ?? 0);
    counters = new CacheCounters(name, () => (options.maxSize ? this.calculatedSize : this.size), bound);
    this.counters = counters;
  }

  override get(key: K, options?: LRUCache.GetOptions<K, V, unknown>): V | undefined {
    const value = super.get(key, options);
    this.counters.lookup(value !== undefined);
    return value;
  }

  /**
   * The value under `key` when it is still `current` (a hit); otherwise undefined (a miss). For a
   * cache with one entry per owner (a user, say) that records the inputs it was computed from: an
   * entry of other inputs stays readable by `peek`, for a computation that carries on from it.
   */
  getCurrent(key: K, current: (value: V) => boolean): V | undefined {
    const value = super.get(key);
    const found = value !== undefined && current(value);
    this.counters.lookup(found);
    return found ? value : undefined;
  }
}
