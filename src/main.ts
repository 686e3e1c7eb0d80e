import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { listeningMessage } from './bootstrap/listening-message';
import { reduceMemory } from './bootstrap/reduce-memory';
import { warmUpsSettled } from './common/lifecycle/warm-ups';
import { appConfig } from './config/app.config';
import { configurationProblems, describeProblems } from './config/configuration-problems';
import { databaseConfig } from './config/database.config';
import { loadEnvFile } from './config/env-file';
import { openEmbeddedPostgresEarly } from './database/embedded-postgres';

async function main(): Promise<void> {
  loadEnvFile();
  const problems = configurationProblems();
  if (problems.length > 0) {
    console.error(describeProblems(problems));
    process.exit(1);
  }
  // The embedded database opens on its own thread while the application's modules load below.
  if (!databaseConfig().url) openEmbeddedPostgresEarly(appConfig().dataDir);
  const { createApp } = await import('./bootstrap/create-app');
  const app: NestFastifyApplication = await createApp();
  const config = app.get<ConfigType<typeof appConfig>>(appConfig.KEY);
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address() as AddressInfo;
  const { WEB_APP_DIR } = await import('./bootstrap/web-app');
  const webApp = existsSync(join(WEB_APP_DIR, 'index.html'));
  new Logger('Bootstrap').log(listeningMessage(address, config.docsEnabled, webApp));
  void warmUpsSettled().then(reduceMemory);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
