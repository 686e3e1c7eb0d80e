import { Global, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { appConfig } from '../config/app.config';
import { databaseConfig } from '../config/database.config';
import { DatabasePool } from './database-pool';
import { dataSourceOptions } from './data-source-options';
import { migratedDataSource } from './locked-migrations';
import { EmbeddedPostgres, embeddedPostgres } from './embedded-postgres';
import { TransactionContextModule } from './transaction-context';

/** Holds the embedded server, when there is one, so it is stopped after the pool has closed. */
class EmbeddedPostgresHolder {
  server: EmbeddedPostgres | null = null;
}

@Module({
  providers: [EmbeddedPostgresHolder],
  exports: [EmbeddedPostgresHolder],
})
class EmbeddedPostgresModule implements OnApplicationShutdown {
  constructor(private readonly holder: EmbeddedPostgresHolder) {}

  async onApplicationShutdown(): Promise<void> {
    await this.holder.server?.stop();
    this.holder.server = null;
  }
}

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      imports: [EmbeddedPostgresModule],
      inject: [databaseConfig.KEY, appConfig.KEY, EmbeddedPostgresHolder],
      useFactory: async (
        database: ConfigType<typeof databaseConfig>,
        app: ConfigType<typeof appConfig>,
        holder: EmbeddedPostgresHolder,
      ) => {
        if (database.url) {
          return {
            ...dataSourceOptions({ url: database.url }, database.pool),
            autoLoadEntities: true,
          };
        }
        new Logger('Database').log(
          `DATABASE_URL is not set: using the embedded PostgreSQL server in ${app.dataDir}`,
        );
        holder.server = await embeddedPostgres(app.dataDir);
        return {
          ...dataSourceOptions(holder.server.connection, database.pool),
          autoLoadEntities: true,
        };
      },
      dataSourceFactory: (options) => migratedDataSource(options!),
    }),
    TransactionContextModule,
  ],
  providers: [DatabasePool],
  exports: [DatabasePool],
})
@Global()
export class DatabaseModule {}
