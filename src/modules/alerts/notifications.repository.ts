import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from './alert-rules.repository';
import { Notification, NOTIFICATION_CHANNEL, NotificationPage } from './notification';

interface NotificationRow {
  id: string;
  user_id: number;
  rule_id: number | null;
  kind: string;
  title: string;
  text: string;
  data: Record<string, unknown>;
  created_at: Date;
  read_at: Date | null;
}

const COLUMNS = 'id, user_id, rule_id, kind, title, text, data, created_at, read_at';

function toNotification(row: NotificationRow): Notification {
  return {
    id: Number(row.id),
    userId: row.user_id,
    ruleId: row.rule_id,
    kind: row.kind,
    title: row.title,
    text: row.text,
    data: row.data,
    createdAt: row.created_at,
    readAt: row.read_at,
  };
}

export interface NewNotification {
  userId: number;
  ruleId: number;
  arming: number;
  kind: string;
  title: string;
  text: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Persistence of notifications; the unique (rule_id, arming) key makes each one exactly once. */
@Injectable()
export class NotificationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts the notification of one arming, in the caller's transaction, and announces it to every
   * replica on commit; null when that arming already has its notification.
   */
  async insertOnce(manager: EntityManager, notification: NewNotification): Promise<number | null> {
    const [row] = (await manager.query(
      `INSERT INTO notifications (user_id, rule_id, arming, kind, title, text, data, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (rule_id, arming) DO NOTHING
       RETURNING id`,
      [
        notification.userId,
        notification.ruleId,
        notification.arming,
        notification.kind,
        notification.title,
        notification.text,
        notification.data,
        notification.createdAt,
      ],
    )) as { id: string }[];
    return row ? this.announce(manager, Number(row.id), notification.userId) : null;
  }

  /**
   * Inserts a notification of no rule once per user and `dedupeKey` (the daily briefing of one
   * local date), and announces it; null when that key already has its notification.
   */
  async insertKeyedOnce(
    manager: EntityManager,
    notification: Omit<NewNotification, 'ruleId' | 'arming'> & { dedupeKey: string },
  ): Promise<number | null> {
    const [row] = (await manager.query(
      `INSERT INTO notifications (user_id, dedupe_key, kind, title, text, data, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (user_id, dedupe_key) DO NOTHING
       RETURNING id`,
      [
        notification.userId,
        notification.dedupeKey,
        notification.kind,
        notification.title,
        notification.text,
        notification.data,
        notification.createdAt,
      ],
    )) as { id: string }[];
    return row ? this.announce(manager, Number(row.id), notification.userId) : null;
  }

  /** Tells every replica's streams (LISTEN) that the user has a new notification. */
  private async announce(manager: EntityManager, id: number, userId: number): Promise<number> {
    await manager.query(`SELECT pg_notify($1, $2)`, [
      NOTIFICATION_CHANNEL,
      JSON.stringify({ id, user_id: userId }),
    ]);
    return id;
  }

  /** Whether the user has a notification created at or after `since`. */
  async anySince(userId: number, since: Date): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM notifications WHERE user_id = $1 AND created_at >= $2 AND dedupe_key IS NULL LIMIT 1`,
      [userId, since],
    )) as unknown[];
    return rows.length > 0;
  }

  async page(userId: number, unreadOnly: boolean, skip: number, limit: number): Promise<NotificationPage> {
    const [rows, [counts]] = await Promise.all([
      this.dataSource.query(
        `SELECT ${COLUMNS} FROM notifications
         WHERE user_id = $1 AND (NOT $2 OR read_at IS NULL)
         ORDER BY id DESC OFFSET $3 LIMIT $4`,
        [userId, unreadOnly, skip, limit],
      ) as Promise<NotificationRow[]>,
      this.dataSource.query(
        `SELECT count(*) FILTER (WHERE NOT $2 OR read_at IS NULL)::int AS total,
                count(*) FILTER (WHERE read_at IS NULL)::int AS unread
         FROM notifications WHERE user_id = $1`,
        [userId, unreadOnly],
      ) as Promise<{ total: number; unread: number }[]>,
    ]);
    return { items: rows.map(toNotification), total: counts.total, unread: counts.unread };
  }

  /** The user's notifications after `afterId`, oldest first (a stream resuming). */
  async after(userId: number, afterId: number, limit: number): Promise<Notification[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM notifications WHERE user_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
      [userId, afterId, limit],
    )) as NotificationRow[];
    return rows.map(toNotification);
  }

  async byIds(ids: number[]): Promise<Notification[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM notifications WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [ids],
    )) as NotificationRow[];
    return rows.map(toNotification);
  }

  /** The id of the user's newest notification, 0 with none. */
  async latestId(userId: number): Promise<number> {
    const [row] = (await this.dataSource.query(`SELECT max(id) AS id FROM notifications WHERE user_id = $1`, [
      userId,
    ])) as { id: string | null }[];
    return Number(row.id ?? 0);
  }

  async find(userId: number, id: number): Promise<Notification | null> {
    const [row] = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM notifications WHERE user_id = $1 AND id = $2`,
      [userId, id],
    )) as NotificationRow[];
    return row ? toNotification(row) : null;
  }

  /** Marks it read (keeping the first read time); null when it is not the user's. */
  async markRead(userId: number, id: number, now: Date): Promise<Notification | null> {
    const [row] = returnedRows<NotificationRow>(
      await this.dataSource.query(
        `UPDATE notifications SET read_at = COALESCE(read_at, $3) WHERE user_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [userId, id, now],
      ),
    );
    return row ? toNotification(row) : null;
  }

  async markAllRead(userId: number, now: Date): Promise<number> {
    return returnedRows(
      await this.dataSource.query(
        `UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL RETURNING id`,
        [userId, now],
      ),
    ).length;
  }
}
