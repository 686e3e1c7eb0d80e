import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from '../alert-rules.repository';

export type DeliveryChannel = 'webhook' | 'email';
export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

export interface Delivery {
  id: number;
  notificationId: number;
  userId: number;
  channel: DeliveryChannel;
  status: DeliveryStatus;
  digest: boolean;
  dueAt: Date;
  attempts: number;
  lastError: string | null;
  deliveredAt: Date | null;
  nextAttemptAt: Date;
}

interface DeliveryRow {
  id: string;
  notification_id: string;
  user_id: number;
  channel: DeliveryChannel;
  status: DeliveryStatus;
  digest: boolean;
  due_at: Date;
  attempts: number;
  last_error: string | null;
  delivered_at: Date | null;
  next_attempt_at: Date;
}

const COLUMNS =
  'id, notification_id, user_id, channel, status, digest, due_at, attempts, last_error, delivered_at, next_attempt_at';

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: Number(row.id),
  notificationId: Number(row.notification_id),
  userId: row.user_id,
  channel: row.channel,
  status: row.status,
  digest: row.digest,
  dueAt: row.due_at,
  attempts: row.attempts,
  lastError: row.last_error,
  deliveredAt: row.delivered_at,
  nextAttemptAt: row.next_attempt_at,
});

/** The outbox: one delivery per notification and channel, claimed by one worker at a time. */
@Injectable()
export class NotificationDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** In the transaction that wrote the notification: it is delivered if and only if it exists. */
  async enqueue(
    manager: EntityManager,
    notificationId: number,
    userId: number,
    channels: readonly DeliveryChannel[],
    dueAt: Date,
    digest: boolean,
  ): Promise<void> {
    if (channels.length === 0) return;
    await manager.query(
      `INSERT INTO notification_deliveries (notification_id, user_id, channel, digest, due_at, next_attempt_at)
       SELECT $1, $2, channel, $4, $3, $3 FROM unnest($5::varchar[]) AS channel
       ON CONFLICT (notification_id, channel) DO NOTHING`,
      [notificationId, userId, dueAt, digest, channels],
    );
  }

  /** Whether a pending delivery is due at `now` (what claimDue would take). */
  async anyDue(now: Date): Promise<boolean> {
    const [{ any }] = (await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM notification_deliveries WHERE status = 'pending' AND next_attempt_at <= $1) AS any`,
      [now],
    )) as { any: boolean }[];
    return any;
  }

  /**
   * Takes the pending deliveries due at `now` (SKIP LOCKED: two workers never take the same) and
   * leases them until `leaseUntil`: a worker that dies mid-send leaves them to be retried then.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Delivery[]> {
    return returnedRows<DeliveryRow>(
      await this.dataSource.query(
        `UPDATE notification_deliveries SET next_attempt_at = $2, attempts = attempts + 1
         WHERE id IN (
           SELECT id FROM notification_deliveries
           WHERE status = 'pending' AND next_attempt_at <= $1
           ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING ${COLUMNS}`,
        [now, leaseUntil, limit],
      ),
    ).map(toDelivery);
  }

  async markDelivered(ids: number[], now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE notification_deliveries SET status = 'delivered', delivered_at = $2, last_error = NULL
       WHERE id = ANY($1::bigint[])`,
      [ids, now],
    );
  }

  /** Schedules the next attempt, or with `retryAt` null moves them to the dead letters. */
  async markFailed(ids: number[], error: string, retryAt: Date | null): Promise<void> {
    await this.dataSource.query(
      `UPDATE notification_deliveries
       SET last_error = $2, status = CASE WHEN $3::timestamptz IS NULL THEN 'dead' ELSE status END,
           next_attempt_at = COALESCE($3, next_attempt_at)
       WHERE id = ANY($1::bigint[])`,
      [ids, error.slice(0, 500), retryAt],
    );
  }

  async listForUser(userId: number, status: DeliveryStatus | undefined, limit: number): Promise<Delivery[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM notification_deliveries
       WHERE user_id = $1 AND ($2::varchar IS NULL OR status = $2)
       ORDER BY id DESC LIMIT $3`,
      [userId, status ?? null, limit],
    )) as DeliveryRow[];
    return rows.map(toDelivery);
  }
}
