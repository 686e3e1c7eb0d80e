import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger records dividends, splits and cash movements beside buys and sells. Trades keep their
 * positive quantity and price; the other kinds store 0 there and carry an amount (dividend,
 * deposit, withdrawal, fee, interest) or a ratio (split). Deposits, withdrawals and interest have
 * no symbol; a fee has one when it was charged on a position.
 */
export class WidenPortfolioLedgerKinds1797500000000 implements MigrationInterface {
  name = 'WidenPortfolioLedgerKinds1797500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE portfolio_transactions
        DROP CONSTRAINT portfolio_transactions_side_check,
        DROP CONSTRAINT portfolio_transactions_quantity_check,
        DROP CONSTRAINT portfolio_transactions_price_check,
        ALTER COLUMN side TYPE varchar(10),
        ALTER COLUMN symbol DROP NOT NULL,
        ADD COLUMN amount numeric(24, 8) NULL,
        ADD COLUMN withholding_tax numeric(24, 8) NULL,
        ADD COLUMN split_to integer NULL,
        ADD COLUMN split_from integer NULL,
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

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM portfolio_transactions WHERE side NOT IN ('buy', 'sell')`);
    await queryRunner.query(`
      ALTER TABLE portfolio_transactions
        DROP CONSTRAINT portfolio_transactions_kind_check,
        DROP COLUMN split_from,
        DROP COLUMN split_to,
        DROP COLUMN withholding_tax,
        DROP COLUMN amount,
        ALTER COLUMN symbol SET NOT NULL,
        ALTER COLUMN side TYPE varchar(4),
        ADD CONSTRAINT portfolio_transactions_side_check CHECK (side IN ('buy', 'sell')),
        ADD CONSTRAINT portfolio_transactions_quantity_check CHECK (quantity > 0),
        ADD CONSTRAINT portfolio_transactions_price_check CHECK (price > 0)`);
  }
}
