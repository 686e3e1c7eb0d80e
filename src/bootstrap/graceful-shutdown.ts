import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { DrainState } from '../common/lifecycle/drain-state';
import { appConfig } from '../config/app.config';

const IDLE_SWEEP_INTERVAL_MS = 100;

/**
 * On shutdown (SIGTERM): readiness turns false at once; after SHUTDOWN_DELAY_MS (time for a load
 * balancer to notice) the listener closes so no new connection is accepted, in-flight requests
 * finish for up to SHUTDOWN_DRAIN_TIMEOUT_MS, keep-alive connections are closed as soon as they
 * are idle, and whatever is left is then cut. The background work the drain's requests left
 * (DrainState.finishBeforeClose) ends next, within the same timeout. Only after that do the later
 * hooks close the database pool, the Redis clients and the embedded server.
 */
@Injectable()
export class GracefulShutdown implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly drain: DrainState,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.drain.start();
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    if (signal) this.logger.log(`${signal}: draining (readiness is now false)`);
    if (this.config.shutdownDelayMs > 0) await sleep(this.config.shutdownDelayMs);

    const server = fastify.server;
    const closed = fastify.close();
    const sweeper = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_INTERVAL_MS);
    let timer: NodeJS.Timeout | undefined;
    const drainTimedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), this.config.shutdownDrainTimeoutMs);
    });
    try {
      if (await Promise.race([closed.then(() => false), drainTimedOut])) {
        this.logger.warn(
          `Requests still running after ${this.config.shutdownDrainTimeoutMs} ms: closing their connections`,
        );
        server.closeAllConnections();
        await closed;
      }
      await Promise.race([this.drain.allFinished(), drainTimedOut]);
    } finally {
      clearInterval(sweeper);
      clearTimeout(timer);
    }
  }
}
