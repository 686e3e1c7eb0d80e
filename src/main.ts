import 'reflect-metadata';
import { ConfigType } from '@nestjs/config';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { appConfig } from './config/app.config';
import { databaseConfig } from './config/database.config';
import { openEmbeddedPostgresEarly } from './database/embedded-postgres';

async function main(): Promise<void> {
  // The embedded database opens on its own thread while the application's modules load below.
  if (!databaseConfig().url) openEmbeddedPostgresEarly(appConfig().dataDir);
  const { createApp } = await import('./bootstrap/create-app');
  const app: NestFastifyApplication = await createApp();
  const config = app.get<ConfigType<typeof appConfig>>(appConfig.KEY);
  await app.listen(config.port, config.host);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
