import { MigrationInterface, QueryRunner } from 'typeorm';

/** What a user sees of each session in GET /auth/sessions: when it was last used, and from where. */
export class AddSessionClientDetails1797710000000 implements MigrationInterface {
  name = 'AddSessionClientDetails1797710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE sessions
        ADD COLUMN last_used_at timestamptz,
        ADD COLUMN user_agent varchar(512),
        ADD COLUMN client_ip varchar(64)`);
    await queryRunner.query(`UPDATE sessions SET last_used_at = created_at`);
    await queryRunner.query(`ALTER TABLE sessions ALTER COLUMN last_used_at SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE sessions DROP COLUMN last_used_at, DROP COLUMN user_agent, DROP COLUMN client_ip`,
    );
  }
}
