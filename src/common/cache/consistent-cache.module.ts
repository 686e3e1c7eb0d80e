import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { cacheConfig } from '../../config/cache.config';
import { ConsistentCache } from './consistent-cache';
import { MemoryConsistentCache } from './memory-consistent-cache';

@Global()
@Module({
  providers: [
    {
      provide: ConsistentCache,
      inject: [cacheConfig.KEY],
      useFactory: async (config: ConfigType<typeof cacheConfig>): Promise<ConsistentCache> => {
        if (!config.redisUrl) return new MemoryConsistentCache(config.memoryMaxEntries);
        // Loaded only when used: the Redis client is a noticeable part of a cold start.
        const { RedisConsistentCache } = await import('./redis-consistent-cache');
        const cache = new RedisConsistentCache(config.redisUrl, config.namespace);
        await cache.connect();
        return cache;
      },
    },
  ],
  exports: [ConsistentCache],
})
export class ConsistentCacheModule implements OnApplicationShutdown {
  constructor(@Inject(ConsistentCache) private readonly cache: ConsistentCache) {}

  async onApplicationShutdown(): Promise<void> {
    await this.cache.close();
  }
}
