import { CacheModule } from '@nestjs/cache-manager';
import { DynamicModule, Type } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Test, TestingModule, TestingModuleBuilder } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import { ConsistentCacheModule } from '../../src/common/cache/consistent-cache.module';
import { JobsModule } from '../../src/common/jobs/jobs.module';
import { MetricsModule } from '../../src/common/metrics/metrics.module';
import { LifecycleModule } from '../../src/common/lifecycle/lifecycle.module';
import { ClockModule } from '../../src/common/time/clock.module';
import { configNamespaces } from '../../src/config';
import { DatabaseModule } from '../../src/database/database.module';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { testServiceEnv } from '../setup/test-app';

export interface MediumModule {
  ref: TestingModule;
  get<T>(token: Type<T>): T;
  close(): Promise<void>;
}

/**
 * The medium tier: one module booted on its own, with the infrastructure every module relies on
 * (configuration, clock, the provider-call cache, the consistent cache, the migrated database — an embedded cluster copied
 * from the template, or a fresh database on the TEST_DATABASE_URL server — the metrics, and the job
 * runner, off as in every test) and nothing else. Its neighbours are the modules it imports, or
 * typed fakes given through `override`. No HTTP: a medium test calls the module's services and
 * reads what its repositories stored.
 */
export async function bootMedium(
  module: Type<unknown> | DynamicModule,
  override: (builder: TestingModuleBuilder) => TestingModuleBuilder = (builder) => builder,
): Promise<MediumModule> {
  const database: TestDatabase = await createTestDatabase();
  Object.assign(process.env, {
    ...testServiceEnv(),
    CACHE_NAMESPACE: `medium-${randomUUID()}`,
    ...database.env,
  });
  const ref = await override(
    Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({ isGlobal: true, load: configNamespaces, cache: true }),
        // The provider-call cache of the vendor gateway, in this process's memory.
        CacheModule.register({ isGlobal: true }),
        ClockModule,
        LifecycleModule,
        ConsistentCacheModule,
        DatabaseModule,
        MetricsModule,
        JobsModule,
        module,
      ],
    }),
  ).compile();
  await ref.init();
  return {
    ref,
    get: (token) => ref.get(token, { strict: false }),
    async close() {
      await ref.close();
      await database.drop();
    },
  };
}
