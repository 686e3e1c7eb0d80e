/**
 * A cache for state whose changes must take effect on the very next request (sessions, a user's
 * active and superuser flags), shared by every instance when Redis is configured.
 *
 * The race it closes: a reader loads from the database, a writer commits a change and updates the
 * cache, then the reader writes what it loaded — the old state — over it. Here writers never write
 * values a reader could overwrite: after committing they either store a final value that cannot
 * change again (a revoked session) or mark the key stale for a while; readers fill a key only if it
 * is absent (set-if-not-exists), never over a stale mark or a final value, and only if their
 * database read started less than half a stale mark's lifetime ago.
 */
export type SharedStoreState = 'up' | 'down' | 'not_configured';

export abstract class ConsistentCache {
  /** The cached value of `key`, else `load()`'s, cached for `ttlMs` unless a writer marked the key stale. */
  abstract read<T>(key: string, load: () => Promise<T>, ttlMs: number): Promise<T>;

  /**
   * The value `key` holds in this process now (counted as a hit), or undefined when it must be
   * read: lets a check made on every request decide without a promise. The shared store holds
   * nothing in process, so there it is always undefined and `read` goes to Redis as before.
   */
  peek(_key: string): unknown {
    return undefined;
  }

  /** After a committed change: readers go to the database until the mark expires. */
  abstract markStale(key: string): Promise<void>;

  /** After a committed change that is final (a revocation): readers see `value` from now on. */
  abstract putFinal(key: string, value: unknown, ttlMs: number): Promise<void>;

  /** Whether the shared store answers a ping now; `not_configured` for the in-process cache. */
  abstract sharedStoreState(): Promise<SharedStoreState>;

  /** Releases connections at shutdown. */
  async close(): Promise<void> {}
}

/** How long a stale mark holds; a reader's fill is refused if its load started longer ago than half of it. */
export const STALE_MARK_TTL_MS = 10_000;
export const MAX_FILL_AGE_MS = STALE_MARK_TTL_MS / 2;
