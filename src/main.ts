import 'reflect-metadata';
import { ConfigType } from '@nestjs/config';
import { createApp } from './bootstrap/create-app';
import { appConfig } from './config/app.config';

async function main(): Promise<void> {
  const app = await createApp();
  const config = app.get<ConfigType<typeof appConfig>>(appConfig.KEY);
  await app.listen(config.port, config.host);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
