import { Logger } from '@nestjs/common';
import { createClient } from '@redis/client';
import { ConsistentCache, MAX_FILL_AGE_MS, SharedStoreState, STALE_MARK_TTL_MS } from './consistent-cache';
import { withinDeadline } from './within-deadline';

/** Stored values are JSON, which never starts with NUL, so the mark cannot be mistaken for one. */
const STALE_MARK = '\u0000stale';

/** A command Redis has not answered in this time counts as failed: the caller reads the database. */
const COMMAND_TIMEOUT_MS = 500;
const CONNECT_WAIT_MS = 2_000;
/** Marks that could not be written while Redis was away, written when it is back; beyond this, the oldest are dropped. */
const MAX_PENDING_MARKS = 10_000;
const RECOVERY_PING_INTERVAL_MS = 1_000;

type Write = { kind: 'stale' } | { kind: 'final'; value: string; ttlMs: number };

/**
 * The ConsistentCache shared by every instance, in Redis. Fills use `SET NX PX`, so they can
 * never overwrite a writer's mark. When Redis is unreachable, reads go to the database (correct,
 * only slower) and marks are queued and written as soon as Redis is back, before any read is
 * served from it again.
 */
export class RedisConsistentCache extends ConsistentCache {
  private readonly logger = new Logger('Cache');
  private readonly client;
  private readonly pending = new Map<string, Write>();
  private available = false;
  private closing = false;
  private recoveryTimer: NodeJS.Timeout | undefined;
  private recovering = false;

  constructor(
    url: string,
    private readonly namespace: string,
  ) {
    super();
    this.client = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 2_000,
        reconnectStrategy: (retries) => !this.closing && Math.min(100 * 2 ** retries, 2_000),
      },
    });
    this.client.on('error', () => this.becameUnavailable());
    this.client.on('ready', () => void this.becameAvailable());
  }

  /** Waits for Redis at most CONNECT_WAIT_MS: one that is down at boot does not stop the service, the client keeps reconnecting. */
  async connect(): Promise<void> {
    await withinDeadline(
      this.client.connect().catch(() => this.becameUnavailable()),
      CONNECT_WAIT_MS,
    );
  }

  override async close(): Promise<void> {
    this.closing = true;
    this.stopWatchingForRecovery();
    if (this.client.isReady) await this.client.close();
    else if (this.client.isOpen) this.client.destroy();
  }

  async read<T>(key: string, load: () => Promise<T>, ttlMs: number): Promise<T> {
    const name = this.keyOf(key);
    const cached = this.available ? await this.command(() => this.client.get(name)) : undefined;
    if (typeof cached === 'string' && cached !== STALE_MARK) return JSON.parse(cached) as T;
    const loadStartedAt = performance.now();
    const value = await load();
    if (cached === null && performance.now() - loadStartedAt < MAX_FILL_AGE_MS) {
      await this.command(() =>
        this.client.set(name, JSON.stringify(value), {
          condition: 'NX',
          expiration: { type: 'PX', value: ttlMs },
        }),
      );
    }
    return value;
  }

  async sharedStoreState(): Promise<SharedStoreState> {
    if (!this.client.isReady) return 'down';
    return (await this.command(() => this.client.ping())) === undefined ? 'down' : 'up';
  }

  async markStale(key: string): Promise<void> {
    await this.write(key, { kind: 'stale' });
  }

  async putFinal(key: string, value: unknown, ttlMs: number): Promise<void> {
    await this.write(key, { kind: 'final', value: JSON.stringify(value), ttlMs });
  }

  private async write(key: string, write: Write): Promise<void> {
    if (this.available && (await this.command(() => this.apply(key, write))) !== undefined) return;
    this.pending.delete(key);
    this.pending.set(key, write);
    if (this.pending.size > MAX_PENDING_MARKS)
      this.pending.delete(this.pending.keys().next().value as string);
  }

  private apply(key: string, write: Write) {
    return write.kind === 'stale'
      ? this.client.set(this.keyOf(key), STALE_MARK, { expiration: { type: 'PX', value: STALE_MARK_TTL_MS } })
      : this.client.set(this.keyOf(key), write.value, { expiration: { type: 'PX', value: write.ttlMs } });
  }

  /**
   * The command's answer, or undefined when Redis failed or did not answer in time (no command
   * used here answers undefined: a missing key is null).
   */
  private async command<T>(run: () => Promise<T>): Promise<T | undefined> {
    const answer = await withinDeadline(Promise.resolve().then(run), COMMAND_TIMEOUT_MS);
    if (answer === undefined) this.becameUnavailable();
    return answer;
  }

  private becameUnavailable(): void {
    if (!this.available) return;
    this.available = false;
    this.logger.warn('Redis is unreachable: auth state is read from the database until it is back');
    this.watchForRecovery();
  }

  /**
   * A connection that stays open but stopped answering (a partition, a stalled server) never
   * emits `ready` again when it recovers, so it is pinged until it answers.
   */
  private watchForRecovery(): void {
    if (this.recoveryTimer) return;
    this.recoveryTimer = setInterval(() => {
      if (this.closing || this.available) return this.stopWatchingForRecovery();
      if (!this.client.isReady || this.recovering) return;
      this.recovering = true;
      void this.command(() => this.client.ping())
        .then((pong) => (pong === undefined ? undefined : this.becameAvailable()))
        .finally(() => (this.recovering = false));
    }, RECOVERY_PING_INTERVAL_MS);
    this.recoveryTimer.unref();
  }

  private stopWatchingForRecovery(): void {
    clearInterval(this.recoveryTimer);
    this.recoveryTimer = undefined;
  }

  /** Queued marks are written before reads use Redis again, so no read sees a value they would have hidden. */
  private async becameAvailable(): Promise<void> {
    for (const [key, write] of [...this.pending]) {
      if ((await this.command(() => this.apply(key, write))) === undefined) return;
      this.pending.delete(key);
    }
    if (!this.available) this.logger.log('Redis is reachable again');
    this.available = true;
  }

  private keyOf(key: string): string {
    return `${this.namespace}:consistent:${key}`;
  }
}
