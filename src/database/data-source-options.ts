import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { EmbeddedPostgres } from './embedded-postgres';
import { SnakeNamingStrategy } from './snake-naming.strategy';

export const POOL_SIZE = 5;

/** The options shared by the app and the migration CLI: PostgreSQL, migrations, no synchronize. */
export function dataSourceOptions(
  target: { url: string } | EmbeddedPostgres['connection'],
): DataSourceOptions {
  return {
    type: 'postgres',
    ...target,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTransactionMode: 'each',
    extra: { max: POOL_SIZE },
  };
}
