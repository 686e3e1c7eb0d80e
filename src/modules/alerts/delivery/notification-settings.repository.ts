import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returnedRows } from '../alert-rules.repository';

export interface StoredNotificationSettings {
  webhookUrl: string | null;
  webhookSecret: string | null;
  emailEnabled: boolean;
  timeZone: string;
  unsubscribeToken: string;
}

export const DEFAULT_TIME_ZONE = 'America/New_York';

interface SettingsRow {
  webhook_url: string | null;
  webhook_secret: string | null;
  email_enabled: boolean;
  time_zone: string;
  unsubscribe_token: string;
}

const toSettings = (row: SettingsRow): StoredNotificationSettings => ({
  webhookUrl: row.webhook_url,
  webhookSecret: row.webhook_secret,
  emailEnabled: row.email_enabled,
  timeZone: row.time_zone,
  unsubscribeToken: row.unsubscribe_token,
});

/** Persistence of each user's delivery settings; no row means the defaults. */
@Injectable()
export class NotificationSettingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(userId: number): Promise<StoredNotificationSettings | null> {
    const [row] = (await this.dataSource.query(
      `SELECT webhook_url, webhook_secret, email_enabled, time_zone, unsubscribe_token FROM notification_settings WHERE user_id = $1`,
      [userId],
    )) as SettingsRow[];
    return row ? toSettings(row) : null;
  }

  /** Whether any user has a channel besides the inbox (withChannels would name someone). */
  async anyWithChannels(): Promise<boolean> {
    const [{ any }] = (await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM notification_settings WHERE webhook_url IS NOT NULL OR email_enabled) AS any`,
    )) as { any: boolean }[];
    return any;
  }

  /** The users with a channel besides the inbox, and their time zones. */
  async withChannels(): Promise<{ userId: number; timeZone: string }[]> {
    const rows = (await this.dataSource.query(
      `SELECT user_id, time_zone FROM notification_settings
       WHERE webhook_url IS NOT NULL OR email_enabled ORDER BY user_id`,
    )) as { user_id: number; time_zone: string }[];
    return rows.map((row) => ({ userId: row.user_id, timeZone: row.time_zone }));
  }

  /** Turns a channel off for the holder of the user's unsubscribe token; false when the token is unknown. */
  async unsubscribe(token: string, channel: 'email' | 'webhook', now: Date): Promise<boolean> {
    const rows = returnedRows(
      await this.dataSource.query(
        `UPDATE notification_settings
         SET email_enabled = CASE WHEN $2 = 'email' THEN false ELSE email_enabled END,
             webhook_url = CASE WHEN $2 = 'webhook' THEN NULL ELSE webhook_url END,
             updated_at = $3
         WHERE unsubscribe_token = $1::uuid RETURNING user_id`,
        [token, channel, now],
      ),
    );
    return rows.length > 0;
  }

  /** Applies the given fields in one statement (the others keep their value); returns the result. */
  async update(
    userId: number,
    changes: Partial<Omit<StoredNotificationSettings, 'unsubscribeToken'>>,
    now: Date,
  ): Promise<StoredNotificationSettings> {
    const [row] = (await this.dataSource.query(
      `INSERT INTO notification_settings (user_id, webhook_url, webhook_secret, email_enabled, time_zone, updated_at)
       VALUES ($1, $3, $5, COALESCE($6, false), COALESCE($7, '${DEFAULT_TIME_ZONE}'), $8)
       ON CONFLICT (user_id) DO UPDATE SET
         webhook_url = CASE WHEN $2 THEN $3 ELSE notification_settings.webhook_url END,
         webhook_secret = CASE WHEN $4 THEN $5 ELSE notification_settings.webhook_secret END,
         email_enabled = COALESCE($6, notification_settings.email_enabled),
         time_zone = COALESCE($7, notification_settings.time_zone),
         updated_at = $8
       RETURNING webhook_url, webhook_secret, email_enabled, time_zone, unsubscribe_token`,
      [
        userId,
        changes.webhookUrl !== undefined,
        changes.webhookUrl ?? null,
        changes.webhookSecret !== undefined,
        changes.webhookSecret ?? null,
        changes.emailEnabled ?? null,
        changes.timeZone ?? null,
        now,
      ],
    )) as SettingsRow[];
    return toSettings(row);
  }
}
