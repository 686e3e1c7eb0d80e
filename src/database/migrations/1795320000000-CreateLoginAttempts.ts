import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateLoginAttempts1795320000000 implements MigrationInterface {
  name = 'CreateLoginAttempts1795320000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE login_attempts (
        email varchar(320) NOT NULL,
        client_ip varchar(64) NOT NULL,
        failures integer NOT NULL,
        window_started_at timestamptz NOT NULL,
        PRIMARY KEY (email, client_ip)
      )`);
    await queryRunner.query(`CREATE INDEX login_attempts_window_idx ON login_attempts (window_started_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE login_attempts`);
  }
}
