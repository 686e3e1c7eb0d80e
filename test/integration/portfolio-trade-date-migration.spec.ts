import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { EmbeddedPostgres, startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { migratedDataSource } from '../../src/database/locked-migrations';
import { createTestDatabase, TestDatabase } from '../setup/test-database';

// Issue 21, defect 13: the exchange date is stored beside the instant. Rows stored before the
// migration get the date they were shown on until then.
describe('Migration AddPortfolioTradeDate on stored rows', () => {
  let database: TestDatabase;
  let embedded: EmbeddedPostgres | null = null;
  let source: DataSource | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await source?.destroy();
    await embedded?.stop();
    await database.drop();
  });

  it('dates midnight-UTC rows on their UTC date (stored from a date alone) and the others on New York’s', async () => {
    const target = database.env.DATABASE_URL
      ? { url: database.env.DATABASE_URL }
      : (embedded = await startEmbeddedPostgres(database.env.DATA_DIR)).connection;
    source = await migratedDataSource(dataSourceOptions(target));
    // Back to the schema before the migration under test (later migrations undone first).
    const names = source.migrations.map((migration) => migration.name);
    const undo = names.length - names.indexOf('AddPortfolioTradeDate1797700000000');
    expect(undo).toBeLessThanOrEqual(names.length);
    for (let n = 0; n < undo; n += 1) await source.undoLastMigration();

    const [{ id: userId }] = await source.query<{ id: number }[]>(
      `INSERT INTO users (email, full_name, hashed_password, is_active, is_superuser, created_at)
       VALUES ('migrated@example.com', 'M', 'x', true, false, now()) RETURNING id`,
    );
    const executed = ['2025-01-07T00:00:00Z', '2025-08-01T01:00:00Z', '2025-01-06T15:30:00Z'];
    for (const at of executed)
      await source.query(
        `INSERT INTO portfolio_transactions (user_id, symbol, side, quantity, price, fees, executed_at, created_at)
         VALUES ($1, 'AAPL', 'buy', 1, 100, 0, $2, now())`,
        [userId, at],
      );
    await source.runMigrations({ transaction: 'each' });

    const rows = await source.query<{ trade_date: string }[]>(
      'SELECT trade_date::text AS trade_date FROM portfolio_transactions ORDER BY id',
    );
    expect(rows.map((row) => row.trade_date)).toEqual(['2025-01-07', '2025-07-31', '2025-01-06']);
    const [column] = await source.query<{ is_nullable: string }[]>(
      `SELECT is_nullable FROM information_schema.columns
        WHERE table_name = 'portfolio_transactions' AND column_name = 'trade_date'`,
    );
    expect(column.is_nullable).toBe('NO');
  });
});
