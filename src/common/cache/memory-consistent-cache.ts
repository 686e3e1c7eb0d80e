import { ConsistentCache, MAX_FILL_AGE_MS, STALE_MARK, STALE_MARK_TTL_MS } from './consistent-cache';

interface Entry {
  value: string;
  expiresAt: number;
}

/**
 * The single-instance ConsistentCache: a bounded map in this process (the oldest entries are
 * evicted first). Each operation on the map is synchronous, so the rules hold without locks.
 */
export class MemoryConsistentCache extends ConsistentCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    super();
  }

  async read<T>(key: string, load: () => Promise<T>, ttlMs: number): Promise<T> {
    const cached = this.current(key);
    if (cached !== undefined && cached !== STALE_MARK) return JSON.parse(cached) as T;
    const loadStartedAt = this.now();
    const value = await load();
    if (
      cached === undefined &&
      this.now() - loadStartedAt < MAX_FILL_AGE_MS &&
      this.current(key) === undefined
    ) {
      this.store(key, JSON.stringify(value), ttlMs);
    }
    return value;
  }

  async markStale(key: string): Promise<void> {
    this.store(key, STALE_MARK, STALE_MARK_TTL_MS);
  }

  async putFinal(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.store(key, JSON.stringify(value), ttlMs);
  }

  private current(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  private store(key: string, value: string, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
