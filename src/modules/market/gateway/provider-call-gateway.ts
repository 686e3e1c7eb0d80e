import type { Cache } from 'cache-manager';
import type { Clock } from '../../../common/clock/clock';
import { ProviderUnavailableError } from '../providers/provider-errors';
import type { Sleeper } from './sleeper';

/** One keyed call to a third-party provider. */
export interface ProviderCall<T> {
  /** Pacing and back-off are per provider name. */
  provider: string;
  /** What is asked (quote, history, news-search, ...): part of the cache key. */
  kind: string;
  /** Identifies the request within its kind (a symbol, a query). */
  key: string;
  /** How long an answer is reused; 0 disables caching (calls are still paced and coalesced). */
  ttlMs: number;
  /** Least time between the starts of two requests to this provider. */
  minIntervalMs: number;
  fetch: () => Promise<T>;
}

export interface GatewayOptions {
  /** Retries after a rate-limit answer whose retry-after is at most this long; longer ones fail fast. */
  maxRateLimitWaitMs: number;
  maxRateLimitRetries: number;
}

interface CacheEntry<T> {
  value: T;
  storedAt: number;
  expiresAt: number;
}

/**
 * The single caching, pacing and single-flight layer in front of every provider (market data and
 * news). Cached answers live in the shared cache (Redis when configured) with their expiry taken
 * from the injected Clock; identical concurrent calls share one in-flight promise; requests to one
 * provider start at least `minIntervalMs` apart; a rate-limit answer blocks the provider for the
 * time it asked for, retrying once when that is short.
 */
export class ProviderCallGateway {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly nextSlot = new Map<string, number>();
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly cache: Cache,
    private readonly clock: Clock,
    private readonly sleeper: Sleeper,
    private readonly options: GatewayOptions,
  ) {}

  call<T>(call: ProviderCall<T>): Promise<T> {
    const key = cacheKey(call.provider, call.kind, call.key);
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const promise = this.cachedOrFetched(key, call).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  /** A cached answer of an earlier call (or `store`), if still fresh. */
  async peek<T>(provider: string, kind: string, key: string): Promise<T | undefined> {
    const entry = await this.cache.get<CacheEntry<T>>(cacheKey(provider, kind, key));
    const now = this.now();
    // An answer stored "in the future" (a clock set back, a skewed instance) is not reused either.
    return entry && entry.storedAt <= now && now < entry.expiresAt ? entry.value : undefined;
  }

  /** Caches a value obtained another way, e.g. one symbol out of a multi-symbol answer. */
  async store<T>(provider: string, kind: string, key: string, value: T, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    const now = this.now();
    const entry: CacheEntry<T> = { value, storedAt: now, expiresAt: now + ttlMs };
    await this.cache.set(cacheKey(provider, kind, key), entry, ttlMs);
  }

  private async cachedOrFetched<T>(key: string, call: ProviderCall<T>): Promise<T> {
    if (call.ttlMs > 0) {
      const cached = await this.peek<T>(call.provider, call.kind, call.key);
      if (cached !== undefined) return cached;
    }
    const value = await this.paced(call.provider, call.minIntervalMs, call.fetch);
    await this.store(call.provider, call.kind, call.key, value, call.ttlMs);
    return value;
  }

  private async paced<T>(provider: string, minIntervalMs: number, fetch: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      const now = this.now();
      const blockedUntil = this.blockedUntil.get(provider) ?? 0;
      if (blockedUntil - now > this.options.maxRateLimitWaitMs) {
        throw new ProviderUnavailableError(provider, 'backing off after a rate limit', blockedUntil - now);
      }
      // An unpaced provider (the local replay) never queues behind its own earlier calls.
      const queuedUntil = minIntervalMs > 0 ? (this.nextSlot.get(provider) ?? now) : now;
      const slot = Math.max(now, blockedUntil, queuedUntil);
      if (minIntervalMs > 0) this.nextSlot.set(provider, slot + minIntervalMs);
      if (slot > now) await this.sleeper.sleep(slot - now);
      try {
        return await fetch();
      } catch (error) {
        if (!(error instanceof ProviderUnavailableError) || !error.rateLimited) throw error;
        this.blockedUntil.set(provider, this.now() + (error.retryAfterMs ?? 0));
        if (attempt >= this.options.maxRateLimitRetries) throw error;
      }
    }
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}

function cacheKey(provider: string, kind: string, key: string): string {
  return `provider:${provider}:${kind}:${key}`;
}
