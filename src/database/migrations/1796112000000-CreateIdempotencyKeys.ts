import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdempotencyKeys1796112000000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1796112000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        key varchar(255) NOT NULL,
        fingerprint char(64) NOT NULL,
        response json NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, key)
      )`);
    await queryRunner.query(`CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_keys`);
  }
}
