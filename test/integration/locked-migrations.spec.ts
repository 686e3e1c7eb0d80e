import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { EmbeddedPostgres, startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { migratedDataSource } from '../../src/database/locked-migrations';
import { createTestDatabase, TestDatabase } from '../setup/test-database';

const INSTANCES = 3;

/** Replicas booting together on an empty database, as `docker compose up` starts them. */
describe('Migrations at boot on PostgreSQL', () => {
  let database: TestDatabase;
  let embedded: EmbeddedPostgres | null = null;
  let sources: DataSource[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(sources.map((source) => source.destroy()));
    await embedded?.stop();
    await database.drop();
  });

  it('three instances at once: every one starts, each migration is applied once', async () => {
    const target = database.env.DATABASE_URL
      ? { url: database.env.DATABASE_URL }
      : (embedded = await startEmbeddedPostgres(database.env.DATA_DIR)).connection;

    sources = await Promise.all(
      Array.from({ length: INSTANCES }, () => migratedDataSource(dataSourceOptions(target))),
    );

    const applied = await sources[0].query<{ name: string }[]>('SELECT name FROM migrations ORDER BY id');
    const known = sources[0].migrations.map((migration) => migration.name);
    expect(applied.map((row) => row.name).sort()).toEqual([...known].sort());
    expect(applied).toHaveLength(known.length);
    for (const source of sources) expect(await source.showMigrations()).toBe(false);
    const [locks] = await sources[0].query<{ held: number }[]>(
      "SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory'",
    );
    expect(locks.held).toBe(0);
  });
});
