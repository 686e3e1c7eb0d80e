import { NestFactory } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, RequestListener } from 'node:http';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../app.module';
import { MAX_PATH_PARAMETER_LENGTH } from '../common/errors/error-details';
import { acceptedRequestId } from '../common/logging/request-id';
import { answerClientError, answerFrameworkError } from '../common/errors/framework-errors';
import { parseFormEncoded } from '../common/validation/form-encoded';
import { appConfig } from '../config/app.config';
import { BROKER_IMPORT_MAX_BYTES } from '../modules/portfolio';
import { configureApp, REQUEST_ID_HEADER } from './configure-app';

const BODY_LIMIT_BYTES = 1024 * 1024;
/** Routes that take more than BODY_LIMIT_BYTES: a brokerage export holds years of activity. */
const LARGE_BODY_ROUTES: Readonly<Record<string, number>> = {
  '/api/v1/portfolio/import': BROKER_IMPORT_MAX_BYTES,
};
const REQUEST_TIMEOUT_CHECK_INTERVAL_MS = 500;

/** The adapter is built before Nest's DI exists, so it reads its settings straight from config. */
export function fastifyAdapter(): FastifyAdapter {
  const config = appConfig();
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    // A client must send its whole request (headers and body) within REQUEST_TIMEOUT_MS, checked
    // every half second (Node's default check, every 30 s, would let a slow client overstay it):
    // a slow client cannot hold a connection open (answered 408).
    serverFactory: (handler: RequestListener) =>
      createServer(
        {
          requestTimeout: config.requestTimeoutMs,
          connectionsCheckingInterval: REQUEST_TIMEOUT_CHECK_INTERVAL_MS,
        },
        handler,
      ),
    // Connections are closed by GracefulShutdown: Fastify's 'idle' closes busy ones too unless a
    // serverFactory is set, and its 503 while closing is not in our error shape.
    forceCloseConnections: false,
    return503OnClosing: false,
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: MAX_PATH_PARAMETER_LENGTH,
      querystringParser: parseFormEncoded,
    },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // The client's X-Request-Id is echoed and logged, so only a short token is taken from it.
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) =>
      acceptedRequestId(request.headers[REQUEST_ID_HEADER]) ?? randomUUID(),
  });
  // Before any route exists, so that each large-body route is registered with its own limit.
  adapter.getInstance().addHook('onRoute', (route) => {
    const limit = LARGE_BODY_ROUTES[route.url];
    if (limit !== undefined) route.bodyLimit = limit;
  });
  return adapter;
}

export async function createApp(): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, fastifyAdapter(), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  await configureApp(app);
  return app;
}
