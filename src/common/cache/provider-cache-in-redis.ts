import { Logger } from '@nestjs/common';
import type { Keyv } from 'cacheable';

const RECONNECT_MAX_DELAY_MS = 2_000;
const OUTAGE_LOG_INTERVAL_MS = 60_000;

/**
 * The provider-answer cache in Redis, failing fast: no offline queue (a command while Redis is
 * away fails at once and reads as a miss), bounded connect and reconnect delays, errors logged
 * at most once a minute instead of thrown. The gateway also bounds each command's time.
 */
export async function providerCacheInRedis(url: string, namespace: string): Promise<Keyv> {
  // Loaded only when used: the Redis client is a noticeable part of a cold start.
  const { createKeyv } = await import('@keyv/redis');
  const keyv = createKeyv(
    {
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 2_000,
        reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, RECONNECT_MAX_DELAY_MS),
      },
    },
    { namespace, throwOnConnectError: false, throwOnErrors: false, connectionTimeout: 2_000 },
  );
  const logger = new Logger('ProviderCache');
  let lastLoggedAt = -Infinity;
  keyv.on('error', (error: unknown) => {
    if (performance.now() - lastLoggedAt < OUTAGE_LOG_INTERVAL_MS) return;
    lastLoggedAt = performance.now();
    logger.warn(`Redis is unreachable, provider answers are not cached: ${String(error)}`);
  });
  return keyv as unknown as Keyv;
}
