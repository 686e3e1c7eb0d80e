import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { DrainState } from '../common/lifecycle/drain-state';
import { appConfig } from '../config/app.config';

const IDLE_SWEEP_INTERVAL_MS = 100;
/** The signals an orchestrator or a terminal stops the service with. */
const DRAIN_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/**
 * On shutdown (SIGTERM): readiness turns false at once; after SHUTDOWN_DELAY_MS (time for a load
 * balancer to notice) the listener closes so no new connection is accepted, in-flight requests
 * finish for up to SHUTDOWN_DRAIN_TIMEOUT_MS, keep-alive connections are closed as soon as they
 * are idle, and whatever is left is then cut. The background work the drain's requests left
 * (DrainState.finishBeforeClose) ends next, within the same timeout. Only after that do the later
 * hooks close the database pool, the Redis clients and the embedded server.
 *
 * The drain starts on the signal itself: Nest runs every module's destroy hook before
 * beforeApplicationShutdown, and a destroy hook may wait for long work (a market graph build),
 * during which readiness would still say yes and new connections would keep arriving.
 */
@Injectable()
export class GracefulShutdown implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private draining: Promise<void> | null = null;
  /** A failure is reported where Nest awaits the drain, in beforeApplicationShutdown. */
  private readonly drainOnSignal = (signal: NodeJS.Signals) =>
    void this.drainOnce(signal).catch(() => undefined);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly drain: DrainState,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  onApplicationBootstrap(): void {
    for (const signal of DRAIN_SIGNALS) process.once(signal, this.drainOnSignal);
  }

  beforeApplicationShutdown(signal?: string): Promise<void> {
    for (const signal of DRAIN_SIGNALS) process.removeListener(signal, this.drainOnSignal);
    return this.drainOnce(signal);
  }

  /** Starts the drain unless the signal already has; resolves when it is over. */
  private drainOnce(signal?: string): Promise<void> {
    this.draining ??= this.drainConnections(signal);
    return this.draining;
  }

  private async drainConnections(signal?: string): Promise<void> {
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
