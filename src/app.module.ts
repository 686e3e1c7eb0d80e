import { CacheModule } from '@nestjs/cache-manager';
import { Module } from '@nestjs/common';
import { ConfigModule, ConfigType } from '@nestjs/config';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { Keyv, KeyvCacheableMemory } from 'cacheable';
import { LoggerModule } from 'nestjs-pino';
import { ConsistentCacheModule } from './common/cache/consistent-cache.module';
import { providerCacheInRedis } from './common/cache/provider-cache-in-redis';
import { ClockModule } from './common/time/clock.module';
import { JobsModule } from './common/jobs/jobs.module';
import { LifecycleModule } from './common/lifecycle/lifecycle.module';
import { MetricsModule } from './common/metrics/metrics.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { HttpExceptionFilter } from './common/errors/http-exception.filter';
import { PydanticValidationPipe } from './common/validation/pydantic-validation.pipe';
import { appConfig } from './config/app.config';
import { cacheConfig } from './config/cache.config';
import { configNamespaces } from './config';
import { GracefulShutdown } from './bootstrap/graceful-shutdown';
import { loggerOptions } from './bootstrap/logger-options';
import { DatabaseModule } from './database/database.module';
import { AccountModule } from './modules/account';
import { AdminModule } from './modules/admin';
import { AlertsModule } from './modules/alerts';
import { AssistantModule } from './modules/assistant';
import { AuthModule } from './modules/auth';
import { GraphModule } from './modules/graph';
import { HealthModule } from './modules/health';
import { MarketModule } from './modules/market';
import { NewsModule } from './modules/news';
import { PortfolioModule } from './modules/portfolio';
import { PreferencesModule } from './modules/preferences';
import { UsersModule } from './modules/users';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, load: configNamespaces, cache: true }),
    LoggerModule.forRootAsync({ inject: [appConfig.KEY], useFactory: loggerOptions }),
    CacheModule.registerAsync({
      isGlobal: true,
      inject: [cacheConfig.KEY],
      useFactory: async (cache: ConfigType<typeof cacheConfig>) => ({
        stores: [
          cache.redisUrl
            ? await providerCacheInRedis(cache.redisUrl, cache.namespace)
            : new Keyv({
                store: new KeyvCacheableMemory({ lruSize: cache.memoryMaxEntries }),
                namespace: cache.namespace,
              }),
        ],
      }),
    }),
    ClockModule,
    LifecycleModule,
    ConsistentCacheModule,
    DatabaseModule,
    MetricsModule,
    JobsModule,
    RateLimitModule,
    UsersModule,
    AuthModule,
    AdminModule,
    AccountModule,
    AlertsModule,
    AssistantModule,
    GraphModule,
    HealthModule,
    MarketModule,
    NewsModule,
    PortfolioModule,
    PreferencesModule,
  ],
  providers: [
    GracefulShutdown,
    { provide: APP_PIPE, useClass: PydanticValidationPipe },
    { provide: APP_FILTER, useClass: HttpExceptionFilter },
  ],
})
export class AppModule {}
