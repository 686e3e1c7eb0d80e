import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each ledger entry keeps the exchange (New York) date it belongs to beside its instant: a date
 * given alone (stored as midnight UTC) is that date, a date-time is its New York date. Before,
 * the date was worked out from the instant, so a date-time of exactly 00:00:00Z (20:00 the evening
 * before in New York) was taken for a date alone. Rows stored before this migration cannot be told
 * apart either: one at midnight UTC keeps the date it was shown on until now (its UTC date).
 */
export class AddPortfolioTradeDate1797700000000 implements MigrationInterface {
  name = 'AddPortfolioTradeDate1797700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE portfolio_transactions ADD COLUMN trade_date date NULL`);
    await queryRunner.query(`
      UPDATE portfolio_transactions
         SET trade_date = CASE
           WHEN executed_at = date_trunc('day', executed_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
             THEN (executed_at AT TIME ZONE 'UTC')::date
           ELSE (executed_at AT TIME ZONE 'America/New_York')::date
         END`);
    await queryRunner.query(`ALTER TABLE portfolio_transactions ALTER COLUMN trade_date SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE portfolio_transactions DROP COLUMN trade_date`);
  }
}
