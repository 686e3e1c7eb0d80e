import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { AsyncLocalStorage } from 'node:async_hooks';
import { ClsModule, ClsServiceManager } from 'nestjs-cls';
import { enableWhileRunning } from './storage-while-running';

/**
 * The unit of work: a service marks a method `@Transactional()` (from `@nestjs-cls/transactional`)
 * and every repository call made inside it, however deep, runs on that transaction's connection
 * through AsyncLocalStorage (a repository reads `TransactionHost#tx`); outside one, it uses the
 * pool. No request middleware, guard or interceptor is mounted: a transaction opens its own
 * context, so requests that never write pay nothing.
 */
export const TransactionContextModule = withoutGlobalEnhancers(
  ClsModule.forRoot({
    global: true,
    plugins: [
      new ClsPluginTransactional({
        adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: getDataSourceToken() }),
      }),
    ],
  }),
);

/**
 * nestjs-cls enables its storage when it is imported, for good; it is enabled only while a
 * transaction runs now, so that the promises of requests that run none carry nothing of it. Done
 * here, at import, before any transaction can run. (The service keeps its storage in a private
 * field.)
 */
enableWhileRunning((ClsServiceManager.getClsService() as unknown as { als: AsyncLocalStorage<unknown> }).als);

type ModuleImport = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;

/**
 * nestjs-cls registers a global guard and a global interceptor even when neither is mounted, and
 * then they do nothing. A single global interceptor is not free: it sends every route through
 * Nest's interceptor chain (rxjs observables and two AsyncResource bindings per request), about a
 * tenth of a light route's CPU. Unmounted, they are left out.
 */
export function withoutGlobalEnhancers(module: DynamicModule): DynamicModule {
  const isEnhancer = (provider: Provider) =>
    typeof provider === 'object' && (provider.provide === APP_GUARD || provider.provide === APP_INTERCEPTOR);
  const withoutInImport = (imported: ModuleImport): ModuleImport =>
    'module' in imported
      ? { ...imported, providers: imported.providers?.filter((provider) => !isEnhancer(provider)) }
      : imported;
  return { ...module, imports: module.imports?.map(withoutInImport) };
}
