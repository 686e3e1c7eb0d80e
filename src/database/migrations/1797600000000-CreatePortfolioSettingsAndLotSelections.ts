import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user's portfolio settings (no row: the defaults), and the lots a sell names under specific
 * identification. A selection goes with either of its transactions; the ledger refuses to delete a
 * named buy before the database would.
 */
export class CreatePortfolioSettingsAndLotSelections1797600000000 implements MigrationInterface {
  name = 'CreatePortfolioSettingsAndLotSelections1797600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE portfolio_settings (
        user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        cost_basis_method varchar(16) NOT NULL DEFAULT 'average'
          CHECK (cost_basis_method IN ('average', 'fifo', 'specific')),
        strict_cash boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`
      CREATE TABLE portfolio_lot_selections (
        sell_id integer NOT NULL REFERENCES portfolio_transactions (id) ON DELETE CASCADE,
        lot_id integer NOT NULL REFERENCES portfolio_transactions (id) ON DELETE CASCADE,
        quantity numeric(24, 8) NOT NULL CHECK (quantity > 0),
        PRIMARY KEY (sell_id, lot_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX portfolio_lot_selections_lot_id ON portfolio_lot_selections (lot_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE portfolio_lot_selections`);
    await queryRunner.query(`DROP TABLE portfolio_settings`);
  }
}
