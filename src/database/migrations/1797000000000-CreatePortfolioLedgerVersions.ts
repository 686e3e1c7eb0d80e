import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One counter per user, bumped in the transaction of every ledger write: what is derived from a
 * ledger (positions, performance) is reused for as long as its version is the current one.
 */
export class CreatePortfolioLedgerVersions1797000000000 implements MigrationInterface {
  name = 'CreatePortfolioLedgerVersions1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE portfolio_ledger_versions (
        user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        version bigint NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE portfolio_ledger_versions`);
  }
}
