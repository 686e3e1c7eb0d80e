import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert rules and the notifications they write. A rule fires at most once per arming: the unique
 * (rule_id, arming) key is what makes two replicas, or a retried job, write one notification. A
 * deleted user takes both along; a deleted rule leaves its notifications in the inbox. A notification
 * of no rule (the daily briefing) is made unique per user by its dedupe key.
 */
export class CreateAlertRulesAndNotifications1797800000000 implements MigrationInterface {
  name = 'CreateAlertRulesAndNotifications1797800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE alert_rules (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind varchar(32) NOT NULL,
        target varchar(16),
        params jsonb NOT NULL DEFAULT '{}',
        status varchar(16) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'triggered', 'paused')),
        rearm varchar(16) NOT NULL DEFAULT 'never' CHECK (rearm IN ('never', 'next_session', 'after_minutes')),
        rearm_minutes integer CHECK (rearm_minutes IS NULL OR rearm_minutes > 0),
        arming integer NOT NULL DEFAULT 1,
        armed_at timestamptz NOT NULL,
        peak double precision,
        baseline double precision,
        triggered_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX alert_rules_user_id ON alert_rules (user_id, id)`);
    await queryRunner.query(`CREATE INDEX alert_rules_status ON alert_rules (status)`);
    await queryRunner.query(`
      CREATE TABLE notifications (
        id bigserial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        rule_id integer REFERENCES alert_rules (id) ON DELETE SET NULL,
        arming integer,
        kind varchar(32) NOT NULL,
        title varchar(200) NOT NULL,
        text varchar(2000) NOT NULL,
        data jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        read_at timestamptz,
        dedupe_key varchar(64),
        UNIQUE (rule_id, arming),
        UNIQUE (user_id, dedupe_key)
      )`);
    await queryRunner.query(`CREATE INDEX notifications_user_id ON notifications (user_id, id DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE notifications`);
    await queryRunner.query(`DROP TABLE alert_rules`);
  }
}
