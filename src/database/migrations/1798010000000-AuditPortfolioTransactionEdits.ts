import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Transactions can be edited: each keeps when it was last changed, and every edit keeps the values
 * it replaced (as the API showed them), so the ledger's history can be audited. The history stays
 * when the transaction is later deleted; it goes with the user.
 */
export class AuditPortfolioTransactionEdits1798010000000 implements MigrationInterface {
  name = 'AuditPortfolioTransactionEdits1798010000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE portfolio_transactions ADD COLUMN updated_at timestamptz NULL`);
    await queryRunner.query(`
      CREATE TABLE portfolio_transaction_history (
        id serial PRIMARY KEY,
        transaction_id integer NOT NULL,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        previous jsonb NOT NULL,
        replaced_at timestamptz NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX portfolio_transaction_history_transaction ON portfolio_transaction_history (transaction_id, id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE portfolio_transaction_history`);
    await queryRunner.query(`ALTER TABLE portfolio_transactions DROP COLUMN updated_at`);
  }
}
