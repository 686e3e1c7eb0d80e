import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Transfers of cash or shares into and out of an account. A share transfer in carries its cost basis
 * (in `amount`) and the date the shares were first acquired, so its lot keeps its holding period;
 * the receiving leg of a transfer between two of the user's accounts names its sending leg
 * (`transfer_of`) and goes with it.
 */
export class AddPortfolioTransfers1798020000000 implements MigrationInterface {
  name = 'AddPortfolioTransfers1798020000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE portfolio_transactions
        DROP CONSTRAINT portfolio_transactions_kind_check,
        ALTER COLUMN side TYPE varchar(16),
        ADD COLUMN acquired_on date NULL,
        ADD COLUMN transfer_of integer NULL REFERENCES portfolio_transactions (id) ON DELETE CASCADE,
        ADD CONSTRAINT portfolio_transactions_kind_check CHECK (
          CASE side
            WHEN 'buy' THEN symbol IS NOT NULL AND quantity > 0 AND price > 0
            WHEN 'sell' THEN symbol IS NOT NULL AND quantity > 0 AND price > 0
            WHEN 'dividend' THEN symbol IS NOT NULL AND amount > 0 AND coalesce(withholding_tax, 0) BETWEEN 0 AND amount
            WHEN 'split' THEN symbol IS NOT NULL AND split_to > 0 AND split_from > 0
            WHEN 'fee' THEN amount > 0
            WHEN 'deposit' THEN symbol IS NULL AND amount > 0
            WHEN 'withdrawal' THEN symbol IS NULL AND amount > 0
            WHEN 'interest' THEN symbol IS NULL AND amount > 0
            WHEN 'transfer_in' THEN CASE WHEN symbol IS NULL THEN amount > 0 ELSE quantity > 0 AND amount >= 0 END
            WHEN 'transfer_out' THEN CASE WHEN symbol IS NULL THEN amount > 0 ELSE quantity > 0 END
            ELSE false
          END
        )`);
    await queryRunner.query(
      `CREATE INDEX portfolio_transactions_transfer_of ON portfolio_transactions (transfer_of) WHERE transfer_of IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM portfolio_transactions WHERE side IN ('transfer_in', 'transfer_out')`,
    );
    await queryRunner.query(`
      ALTER TABLE portfolio_transactions
        DROP CONSTRAINT portfolio_transactions_kind_check,
        DROP COLUMN transfer_of,
        DROP COLUMN acquired_on,
        ALTER COLUMN side TYPE varchar(10),
        ADD CONSTRAINT portfolio_transactions_kind_check CHECK (
          CASE side
            WHEN 'buy' THEN symbol IS NOT NULL AND quantity > 0 AND price > 0
            WHEN 'sell' THEN symbol IS NOT NULL AND quantity > 0 AND price > 0
            WHEN 'dividend' THEN symbol IS NOT NULL AND amount > 0 AND coalesce(withholding_tax, 0) BETWEEN 0 AND amount
            WHEN 'split' THEN symbol IS NOT NULL AND split_to > 0 AND split_from > 0
            WHEN 'fee' THEN amount > 0
            WHEN 'deposit' THEN symbol IS NULL AND amount > 0
            WHEN 'withdrawal' THEN symbol IS NULL AND amount > 0
            WHEN 'interest' THEN symbol IS NULL AND amount > 0
            ELSE false
          END
        )`);
  }
}
