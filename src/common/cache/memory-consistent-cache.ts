import { CacheCounters } from '../metrics/cache-counters';
import { ConsistentCache, MAX_FILL_AGE_MS, SharedStoreState, STALE_MARK_TTL_MS } from './consistent-cache';

const STALE = Symbol('stale');

interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * The single-instance ConsistentCache: a bounded map in this process (the oldest entries are
 * evicted first). Each operation on the map is synchronous, so the rules hold without locks.
 * Values are kept as they are (frozen, since every reader shares them), not serialised: this is
 * read on every authenticated request.
 */
export class MemoryConsistentCache extends ConsistentCache {
  private readonly entries = new Map<string, Entry>();
  private readonly counters: CacheCounters;

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    super();
    this.counters = new CacheCounters('consistent-cache', () => this.entries.size, maxEntries);
  }

  async read<T>(key: string, load: () => Promise<T>, ttlMs: number): Promise<T> {
    const cached = this.current(key);
    const found = cached !== undefined && cached !== STALE;
    this.counters.lookup(found);
    if (found) return cached as T;
    const loadStartedAt = this.now();
    const value = await load();
    if (
      cached === undefined &&
      this.now() - loadStartedAt < MAX_FILL_AGE_MS &&
      this.current(key) === undefined
    ) {
      this.store(key, Object.freeze(value), ttlMs);
    }
    return value;
  }

  override peek(key: string): unknown {
    const cached = this.current(key);
    if (cached === undefined || cached === STALE) return undefined;
    this.counters.lookup(true);
    return cached;
  }

  async sharedStoreState(): Promise<SharedStoreState> {
    return 'not_configured';
  }

  async markStale(key: string): Promise<void> {
    this.store(key, STALE, STALE_MARK_TTL_MS);
  }

  async putFinal(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.store(key, Object.freeze(value), ttlMs);
  }

  private current(key: string): unknown {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  private store(key: string, value: unknown, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
      this.counters.evictions += 1;
    }
  }
}
