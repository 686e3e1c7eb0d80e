import { setTimeout } from 'node:timers/promises';
import { DataSource, DataSourceOptions, MigrationExecutor, QueryRunner } from 'typeorm';

// The same key in every replica; it only has to differ from other advisory locks on the database.
const MIGRATIONS_LOCK_KEY = 1_797_000_000;
const LOCK_POLL_INTERVAL_MS = 250;

/**
 * Initialises the data source and runs the pending migrations, one replica at a time. TypeORM
 * takes no lock: replicas booting together on a new migration would each run it, and all but one
 * fail on it (or, for a migration that only writes rows, apply it twice).
 */
export async function migratedDataSource(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = await new DataSource(options).initialize();
  try {
    await runMigrationsLocked(dataSource);
    return dataSource;
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}

/**
 * The lock is a session advisory lock on the connection that migrates, polled rather than waited
 * for so that no statement timeout cuts the wait for another replica's migrations; PostgreSQL
 * releases it if this process dies holding it.
 */
async function runMigrationsLocked(dataSource: DataSource): Promise<void> {
  const queryRunner = dataSource.createQueryRunner();
  try {
    while (!(await tryLock(queryRunner))) await setTimeout(LOCK_POLL_INTERVAL_MS);
    try {
      const executor = new MigrationExecutor(dataSource, queryRunner);
      executor.transaction = dataSource.options.migrationsTransactionMode ?? 'all';
      await executor.executePendingMigrations();
    } finally {
      await queryRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATIONS_LOCK_KEY]);
    }
  } finally {
    await queryRunner.release();
  }
}

async function tryLock(queryRunner: QueryRunner): Promise<boolean> {
  const [row] = (await queryRunner.query('SELECT pg_try_advisory_lock($1) AS locked', [
    MIGRATIONS_LOCK_KEY,
  ])) as { locked: boolean }[];
  return row.locked;
}
