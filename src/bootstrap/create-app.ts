import { NestFactory } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../app.module';
import { MAX_PATH_PARAMETER_LENGTH } from '../common/errors/error-details';
import { answerClientError, answerFrameworkError } from '../common/errors/framework-errors';
import { parseFormEncoded } from '../common/validation/form-encoded';
import { appConfig } from '../config/app.config';
import { configureApp, REQUEST_ID_HEADER } from './configure-app';

const BODY_LIMIT_BYTES = 1024 * 1024;

/** The adapter is built before Nest's DI exists, so it reads its one setting straight from config. */
export function fastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: appConfig().trustProxy,
    forceCloseConnections: 'idle',
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: MAX_PATH_PARAMETER_LENGTH,
      querystringParser: parseFormEncoded,
    },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    requestIdHeader: REQUEST_ID_HEADER,
    genReqId: () => randomUUID(),
  });
}

export async function createApp(): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, fastifyAdapter(), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  await configureApp(app);
  return app;
}
