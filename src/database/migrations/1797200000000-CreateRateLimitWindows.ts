import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRateLimitWindows1797200000000 implements MigrationInterface {
  name = 'CreateRateLimitWindows1797200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE rate_limit_windows (
        bucket varchar(128) PRIMARY KEY,
        hits integer NOT NULL,
        window_started_at timestamptz NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX rate_limit_windows_window_idx ON rate_limit_windows (window_started_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE rate_limit_windows`);
  }
}
