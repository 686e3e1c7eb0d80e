import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { ClsModule } from 'nestjs-cls';

/**
 * The unit of work: a service marks a method `@Transactional()` (from `@nestjs-cls/transactional`)
 * and every repository call made inside it, however deep, runs on that transaction's connection
 * through AsyncLocalStorage (a repository reads `TransactionHost#tx`); outside one, it uses the
 * pool. No request middleware is mounted: a transaction opens its own context, so requests that
 * never write pay nothing.
 */
export const TransactionContextModule = ClsModule.forRoot({
  global: true,
  plugins: [
    new ClsPluginTransactional({
      adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: getDataSourceToken() }),
    }),
  ],
});
