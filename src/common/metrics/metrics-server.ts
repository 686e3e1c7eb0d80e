import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { appConfig } from '../../config/app.config';
import { DomainError } from '../errors/domain-errors';
import { ErrorDetail } from '../errors/error-details';
import { METRICS_CONTENT_TYPE } from './metrics';
import { MetricsExposure } from './metrics-exposure';

const STATUS_BY_KIND: Partial<Record<DomainError['kind'], number>> = {
  'not-found': 404,
  unauthenticated: 401,
};

/**
 * With METRICS_PORT set, /metrics is served by a listener of its own on HOST:METRICS_PORT (and not on
 * the application port), so operators can keep it off the public network; nothing else is served there.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | null = null;

  constructor(
    private readonly exposure: MetricsExposure,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metrics.port;
    if (port === null) {
      if (!this.config.metrics.onAppPort) {
        this.logger.warn(
          '/metrics is not served: set METRICS_TOKEN or METRICS_PORT to scrape it in production',
        );
      }
      return;
    }
    const server = createServer((request, response) => void this.answer(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.host, () => resolve());
    });
    this.server = server;
    this.logger.log(`Metrics at http://${this.config.host}:${port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0].replace(/\/+$/, '');
    try {
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        send(response, 404, { detail: ErrorDetail.notFound });
        return;
      }
      const text = await this.exposure.scrape('metrics-port', request.headers.authorization);
      response.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE });
      response.end(request.method === 'HEAD' ? undefined : text);
    } catch (error) {
      const status = error instanceof DomainError ? STATUS_BY_KIND[error.kind] : undefined;
      if (status === undefined) {
        this.logger.error({ err: error }, 'Metrics scrape failed');
        send(response, 500, { detail: ErrorDetail.internalServerError });
        return;
      }
      if (status === 401) response.setHeader('www-authenticate', 'Bearer');
      send(response, status, { detail: (error as DomainError).detail });
    }
  }
}

function send(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
