import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Client } from 'pg';
import { RateLimitedError } from '../../common/errors/domain-errors';
import { DrainState } from '../../common/lifecycle/drain-state';
import { ErrorDetail } from '../../common/errors/error-details';
import { alertsConfig } from '../../config/alerts.config';
import { DatabasePool } from '../../database/database-pool';
import { NOTIFICATION_CHANNEL } from './notification';

const RECONNECT_AFTER_MS = 1_000;
/** When to try again after a refused stream. */
const STREAM_RETRY_AFTER_SECONDS = 5;

type Listener = () => void;

/**
 * Hears every replica's new notifications: one PostgreSQL connection per replica LISTENs on the
 * channel the inserting transaction NOTIFYs on commit, and wakes the streams of that user held on
 * this replica. A lost connection is re-opened; streams then catch up from the table by id.
 */
@Injectable()
export class NotificationFeed
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('NotificationFeed');
  private readonly listeners = new Map<number, Set<Listener>>();
  private client: Client | null = null;
  private stopped = false;
  private reconnect?: NodeJS.Timeout;
  private openStreams = 0;
  /** How to end each open stream: draining ends them, or the server would wait on them until its drain timeout. */
  private readonly enders = new Set<() => void>();

  constructor(
    private readonly pool: DatabasePool,
    @Inject(alertsConfig.KEY) private readonly config: ConfigType<typeof alertsConfig>,
    drain: DrainState,
  ) {
    drain.whenDraining(() => this.endStreams());
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.connect();
  }

  beforeApplicationShutdown(): void {
    this.endStreams();
  }

  private endStreams(): void {
    for (const end of [...this.enders]) end();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnect);
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  /**
   * Calls `listener` whenever a notification of `userId` is created on any replica; returns the
   * unsubscribe. Each subscription is an open stream: at most NOTIFICATION_STREAMS_PER_USER per
   * user and NOTIFICATION_STREAMS_TOTAL on this replica, else 429.
   */
  subscribe(userId: number, listener: Listener, end: () => void): () => void {
    if ((this.listeners.get(userId)?.size ?? 0) >= this.config.streamsPerUser)
      throw new RateLimitedError(
        ErrorDetail.tooManyNotificationStreamsForUser(this.config.streamsPerUser),
        STREAM_RETRY_AFTER_SECONDS,
      );
    if (this.openStreams >= this.config.streamsTotal)
      throw new RateLimitedError(ErrorDetail.tooManyNotificationStreams, STREAM_RETRY_AFTER_SECONDS);
    this.openStreams += 1;
    let set = this.listeners.get(userId);
    if (!set) {
      set = new Set();
      this.listeners.set(userId, set);
    }
    set.add(listener);
    this.enders.add(end);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.openStreams -= 1;
      this.enders.delete(end);
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }

  private async connect(): Promise<void> {
    const client = new Client(this.pool.connectionSettings());
    client.on('notification', (message) => this.dispatch(message.payload));
    client.on('error', (error) => {
      this.logger.warn(`Notification feed connection failed: ${String(error)}`);
      this.scheduleReconnect(client);
    });
    client.on('end', () => this.scheduleReconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFICATION_CHANNEL}`);
      this.client = client;
    } catch (error) {
      this.logger.warn(`Notification feed could not listen: ${String(error)}`);
      this.scheduleReconnect(client);
    }
  }

  private scheduleReconnect(client: Client): void {
    if (this.stopped || this.reconnect) return;
    if (this.client === client) this.client = null;
    client.end().catch(() => undefined);
    this.reconnect = setTimeout(() => {
      this.reconnect = undefined;
      // Streams woken now read whatever they missed while the feed was down.
      for (const set of this.listeners.values()) for (const listener of set) listener();
      void this.connect();
    }, RECONNECT_AFTER_MS);
    this.reconnect.unref();
  }

  private dispatch(payload: string | undefined): void {
    let userId: unknown;
    try {
      userId = (JSON.parse(payload ?? '') as { user_id?: unknown }).user_id;
    } catch {
      return;
    }
    if (typeof userId !== 'number') return;
    for (const listener of this.listeners.get(userId) ?? []) listener();
  }
}
