import type { Cache } from 'cache-manager';
import type { Counter } from 'prom-client';
import { CountedLru } from '../../../common/metrics/cache-counters';
import { withinDeadline } from '../../../common/cache/within-deadline';
import type { Clock } from '../../../common/time/clock';
import { Metrics } from '../../../common/metrics/metrics';
import { VendorUnavailableError } from '../provider-errors';
import type { Sleeper } from '../../../common/time/sleeper';

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
  /** A provider computing answers in this process (the replay): see ProviderCallGateway. */
  local?: boolean;
  fetch: () => Promise<T>;
}

/** Identifies one cached answer. */
export interface ProviderCallKey {
  provider: string;
  kind: string;
  key: string;
  local?: boolean;
}

/** Bound of the in-process store of local answers, counted in array items (a bar, a quote). */
const LOCAL_ANSWER_ITEMS = 250_000;

export interface GatewayOptions {
  /** Retries after a rate-limit answer whose retry-after is at most this long; longer ones fail fast. */
  maxRateLimitWaitMs: number;
  maxRateLimitRetries: number;
}

/** A cache (Redis) slower than this counts as a miss: the provider is asked instead. */
const CACHE_DEADLINE_MS = 500;

interface CacheEntry<T> {
  value: T;
  storedAt: number;
  expiresAt: number;
}

/**
 * The single caching, pacing and single-flight layer in front of every provider (market data and
 * news). Cached answers live in the shared cache (Redis when configured) with their expiry taken
 * from the injected Clock — except those of a local provider, which every instance computes alike
 * from data it holds: they stay in this process, frozen and never serialised (decoding cached
 * price histories dominated the portfolio routes). Identical concurrent calls share one in-flight
 * promise; requests to one provider start at least `minIntervalMs` apart; a rate-limit answer
 * blocks the provider for the time it asked for, retrying once when that is short.
 */
export class ProviderCallGateway {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly nextSlot = new Map<string, number>();
  private readonly blockedUntil = new Map<string, number>();
  private readonly providerCacheHits: Counter.Internal;
  private readonly providerCacheMisses: Counter.Internal;
  private readonly localAnswers = new CountedLru<string, CacheEntry<unknown>>('provider-local-answers', {
    maxSize: LOCAL_ANSWER_ITEMS,
    sizeCalculation: (entry) => (Array.isArray(entry.value) ? Math.max(1, entry.value.length) : 1),
  });

  constructor(
    private readonly cache: Cache,
    private readonly clock: Clock,
    private readonly sleeper: Sleeper,
    private readonly options: GatewayOptions,
    private readonly metrics: Metrics = new Metrics(),
  ) {
    this.providerCacheHits = metrics.providerCache.labels({ result: 'hit' });
    this.providerCacheMisses = metrics.providerCache.labels({ result: 'miss' });
  }

  call<T>(call: ProviderCall<T>): Promise<T> {
    const key = cacheKey(call.provider, call.kind, call.key);
    // A fresh local answer (a cached replay quote) is handed over at once: no single flight, no
    // awaits, as on the light routes' hot path.
    const caching = call.ttlMs > 0;
    if (caching && call.local) {
      const fresh = this.localHit<T>(key);
      if (fresh !== undefined) return Promise.resolve(fresh);
    }
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const promise = this.cachedOrFetched(key, call, caching && !call.local).finally(() =>
      this.inFlight.delete(key),
    );
    this.inFlight.set(key, promise);
    return promise;
  }

  /** A cached answer of an earlier call (or `store`), if still fresh. */
  async peek<T>(call: ProviderCallKey): Promise<T | undefined> {
    if (call.local) return this.peekLocal<T>(call);
    const { provider, kind, key } = call;
    const cacheKeyOf = cacheKey(provider, kind, key);
    return this.fresh(await withinDeadline(this.cache.get<CacheEntry<T>>(cacheKeyOf), CACHE_DEADLINE_MS));
  }

  /** A local provider's fresh answer, at once (no promise): it is kept in this process. */
  peekLocal<T>({ provider, kind, key }: ProviderCallKey): T | undefined {
    return this.freshLocal<T>(cacheKey(provider, kind, key));
  }

  /**
   * What `call` would hand over at once for a local provider's cached call: its fresh answer,
   * counted as a provider-cache hit as `call` counts it; undefined (and nothing counted) without one.
   */
  cachedLocalAnswer<T>({ provider, kind, key }: ProviderCallKey): T | undefined {
    return this.localHit<T>(cacheKey(provider, kind, key));
  }

  private localHit<T>(cacheKeyOf: string): T | undefined {
    const fresh = this.freshLocal<T>(cacheKeyOf);
    if (fresh !== undefined) this.providerCacheHits.inc();
    return fresh;
  }

  private freshLocal<T>(cacheKeyOf: string): T | undefined {
    return this.fresh(this.localAnswers.get(cacheKeyOf) as CacheEntry<T> | undefined);
  }

  private fresh<T>(entry: CacheEntry<T> | undefined): T | undefined {
    if (!entry) return undefined;
    const now = this.now();
    // An answer stored "in the future" (a clock set back, a skewed instance) is not reused either.
    return entry.storedAt <= now && now < entry.expiresAt ? entry.value : undefined;
  }

  /** Caches a value obtained another way, e.g. one symbol out of a multi-symbol answer. */
  async store<T>({ provider, kind, key, local }: ProviderCallKey, value: T, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    const now = this.now();
    const entry: CacheEntry<T> = { value, storedAt: now, expiresAt: now + ttlMs };
    if (local) this.localAnswers.set(cacheKey(provider, kind, key), deepFreeze(entry));
    else await withinDeadline(this.cache.set(cacheKey(provider, kind, key), entry, ttlMs), CACHE_DEADLINE_MS);
  }

  /** `lookUp`: whether the shared cache is still to be asked (a local answer was looked up already). */
  private async cachedOrFetched<T>(key: string, call: ProviderCall<T>, lookUp: boolean): Promise<T> {
    if (lookUp) {
      const cached = await this.peek<T>(call);
      if (cached !== undefined) {
        this.providerCacheHits.inc();
        return cached;
      }
    }
    if (call.ttlMs > 0) this.providerCacheMisses.inc();
    const value = await this.paced(call.provider, call.minIntervalMs, () => this.measured(call));
    await this.store(call, value, call.ttlMs);
    return value;
  }

  private async paced<T>(provider: string, minIntervalMs: number, fetch: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      const now = this.now();
      const blockedUntil = this.blockedUntil.get(provider) ?? 0;
      if (blockedUntil - now > this.options.maxRateLimitWaitMs) {
        throw new VendorUnavailableError(provider, 'backing off after a rate limit', blockedUntil - now);
      }
      // An unpaced provider (the local replay) never queues behind its own earlier calls.
      const queuedUntil = minIntervalMs > 0 ? (this.nextSlot.get(provider) ?? now) : now;
      const slot = Math.max(now, blockedUntil, queuedUntil);
      if (minIntervalMs > 0) this.nextSlot.set(provider, slot + minIntervalMs);
      if (slot > now) await this.sleeper.sleep(slot - now);
      try {
        return await fetch();
      } catch (error) {
        if (!(error instanceof VendorUnavailableError) || !error.rateLimited) throw error;
        this.blockedUntil.set(provider, this.now() + (error.retryAfterMs ?? 0));
        if (attempt >= this.options.maxRateLimitRetries) throw error;
      }
    }
  }

  private async measured<T>({ provider, kind, fetch }: ProviderCall<T>): Promise<T> {
    const stopTimer = this.metrics.providerCallDuration.startTimer({ provider, kind });
    try {
      const value = await fetch();
      this.metrics.providerCalls.inc({ provider, kind, outcome: 'ok' });
      return value;
    } catch (error) {
      this.metrics.providerCalls.inc({ provider, kind, outcome: 'error' });
      throw error;
    } finally {
      stopTimer();
    }
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}

function cacheKey(provider: string, kind: string, key: string): string {
  return `provider:${provider}:${kind}:${key}`;
}

/** Readers share a local answer, so none of them may change it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
