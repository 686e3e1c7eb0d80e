import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a user's notifications go beyond the inbox (a webhook, email) and in which time zone their
 * digests fall; and the outbox of deliveries, one per notification and channel, retried with
 * back-off until delivered or dead.
 */
export class CreateNotificationSettingsAndDeliveries1797810000000 implements MigrationInterface {
  name = 'CreateNotificationSettingsAndDeliveries1797810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE notification_settings (
        user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        webhook_url varchar(2048),
        webhook_secret varchar(64),
        email_enabled boolean NOT NULL DEFAULT false,
        time_zone varchar(64) NOT NULL DEFAULT 'America/New_York',
        unsubscribe_token uuid NOT NULL DEFAULT gen_random_uuid(),
        updated_at timestamptz
      )`);
    await queryRunner.query(`
      CREATE TABLE notification_deliveries (
        id bigserial PRIMARY KEY,
        notification_id bigint NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        channel varchar(16) NOT NULL CHECK (channel IN ('webhook', 'email')),
        status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
        digest boolean NOT NULL DEFAULT false,
        due_at timestamptz NOT NULL,
        next_attempt_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        last_error varchar(500),
        delivered_at timestamptz,
        UNIQUE (notification_id, channel)
      )`);
    await queryRunner.query(
      `CREATE INDEX notification_deliveries_due ON notification_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX notification_deliveries_user ON notification_deliveries (user_id, id DESC)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE notification_deliveries`);
    await queryRunner.query(`DROP TABLE notification_settings`);
  }
}
