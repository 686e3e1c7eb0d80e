import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user's ledger is split into accounts (a taxable brokerage account, an IRA, a 401(k)…); lots,
 * cost basis and cash are kept per account. Every user who has a ledger gets a default account
 * holding all of it, so a client that never names an account sees the ledger it always did; users
 * without a ledger get theirs on first use.
 */
export class CreatePortfolioAccounts1798000000000 implements MigrationInterface {
  name = 'CreatePortfolioAccounts1798000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE portfolio_accounts (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        kind varchar(16) NOT NULL
          CHECK (kind IN ('taxable', 'ira', 'roth_ira', '401k', 'hsa', 'other')),
        brokerage varchar(32) NULL,
        opened_on date NULL,
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX portfolio_accounts_one_default ON portfolio_accounts (user_id) WHERE is_default`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX portfolio_accounts_user_name ON portfolio_accounts (user_id, lower(name))`,
    );
    await queryRunner.query(`
      INSERT INTO portfolio_accounts (user_id, name, kind, is_default)
      SELECT DISTINCT user_id, 'Default', 'taxable', true FROM portfolio_transactions`);
    await queryRunner.query(
      `ALTER TABLE portfolio_transactions ADD COLUMN account_id integer NULL REFERENCES portfolio_accounts (id)`,
    );
    await queryRunner.query(`
      UPDATE portfolio_transactions AS t SET account_id = a.id
        FROM portfolio_accounts AS a
       WHERE a.user_id = t.user_id AND a.is_default`);
    await queryRunner.query(`ALTER TABLE portfolio_transactions ALTER COLUMN account_id SET NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX portfolio_transactions_account_id ON portfolio_transactions (account_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE portfolio_transactions DROP COLUMN account_id`);
    await queryRunner.query(`DROP TABLE portfolio_accounts`);
  }
}
