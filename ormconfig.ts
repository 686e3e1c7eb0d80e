// The DataSource the TypeORM CLI uses (`npm run migration:run`, `migration:generate`). With
// DATABASE_URL unset it starts the same embedded PostgreSQL server the service uses, under DATA_DIR.
import 'reflect-metadata';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { appConfig } from './src/config/app.config';
import { databaseConfig } from './src/config/database.config';
import { dataSourceOptions } from './src/database/data-source-options';
import { startEmbeddedPostgres } from './src/database/embedded-postgres';

async function createCliDataSource(): Promise<DataSource> {
  const { url } = databaseConfig();
  const target = url ? { url } : (await startEmbeddedPostgres(appConfig().dataDir)).connection;
  return new DataSource({
    ...dataSourceOptions(target),
    entities: [join(__dirname, 'src/modules/**/entities/*.entity.ts')],
  });
}

export default createCliDataSource();
