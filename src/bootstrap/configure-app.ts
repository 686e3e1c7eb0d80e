import type { INestApplication } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import fastifyCompress, { FastifyCompressOptions } from '@fastify/compress';
import { BROKER_IMPORT_MAX_BYTES } from '../modules/portfolio';
import { answeredStatus } from '../common/metrics/answered-status';
import { Metrics } from '../common/metrics/metrics';
import { appConfig } from '../config/app.config';
import { registerBodyParsers } from './body-parsers';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { registerHttpCaching } from './http-caching';
import { registerPartedBodies } from '../common/http/parted-body';
import { scopedMultipart } from './scoped-multipart';
import {
  swaggerUiDownloadUrl,
  tokenOnlyAuthorizationPersistence,
} from './openapi/swagger-ui-token-persistence';
import { securityHeaders } from './security-headers';
import { registerWebApp } from './web-app';

export const API_PREFIX = 'api/v1';
/** Served at the root, where orchestrators and scrapers look for them. */
export const UNPREFIXED_ROUTES = ['livez', 'readyz', 'metrics'];
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a browser page on an allowed origin may do: every method the API routes use, the headers a
 * client sends, and the response headers its JavaScript may read. A preflight is cached for 2 hours
 * (the most Chromium honours), so a page does not preflight every call.
 */
export const CORS_POLICY = {
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key'],
  exposedHeaders: ['X-Request-Id', 'Retry-After'],
  maxAge: 7200,
  credentials: true,
};

/**
 * Responses of 1 KiB or more in brotli or gzip, as the client accepts (brotli at a quality that
 * costs milliseconds, not seconds, per response); JSON, text, JavaScript and SVG only, never an
 * event stream (whose events must reach the client as they are written). Compressed request
 * bodies are not accepted: the body limit is of what arrives. A buffered answer up to 4 MiB is
 * compressed in one call: through the stream path, the bodies of @nestjs/swagger's routes
 * (/openapi.json, swagger-ui-init.js: async handlers that send without returning the reply) came
 * out empty.
 */
const COMPRESSION: FastifyCompressOptions = {
  encodings: ['br', 'gzip'],
  threshold: 1024,
  syncThreshold: 4 * 1024 * 1024,
  customTypes:
    /^text\/(?!event-stream)|^application\/(?:[\w.+-]+\+)?json(?:;|$)|^(?:application|text)\/javascript(?:;|$)|^image\/svg\+xml(?:;|$)/u,
  globalDecompression: false,
};

/** The API prefix on every route but the probes and /metrics; shared with the client generator. */
export function setApiPrefix(app: INestApplication): void {
  app.setGlobalPrefix(API_PREFIX, { exclude: UNPREFIXED_ROUTES });
}

type OriginCallback = (error: Error | null, origin: string | boolean) => void;

/**
 * A list answers only its origins: another origin gets no CORS header at all (with a plain list,
 * @fastify/cors would still send the allowed methods and headers).
 */
function allowOrigins(origins: string[]) {
  return (origin: string | undefined, callback: OriginCallback) =>
    callback(null, origin !== undefined && origins.includes(origin) ? origin : false);
}

/**
 * Everything about the HTTP surface that is not a route: prefix, security headers, CORS and the
 * API docs.
 * Shared by main.ts and the tests, so both serve exactly the same app.
 */
export async function configureApp(app: NestFastifyApplication): Promise<void> {
  const config = app.get<ConfigType<typeof appConfig>>(appConfig.KEY);
  setApiPrefix(app);
  app.enableShutdownHooks();
  registerBodyParsers(app);
  // One file per request, read by the route that takes it (the broker import); no field is parsed as JSON.
  await app.register(scopedMultipart, {
    routes: [`/${API_PREFIX}/portfolio/import`],
    multipart: { limits: { fileSize: BROKER_IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 11 } },
  });
  // `*` answers every origin with a literal `*` and never allows credentials: reflecting any origin
  // (even `null`) with credentials would let every site act with a user's cookies or auth.
  if (config.corsOrigins === true) app.enableCors({ ...CORS_POLICY, origin: '*', credentials: false });
  else if (config.corsOrigins) app.enableCors({ ...CORS_POLICY, origin: allowOrigins(config.corsOrigins) });

  // One id per request, taken from the caller's X-Request-Id when given: echoed back, and written
  // where the request logger reads it, so the logs and the client quote the same id.
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      request.raw.headers[REQUEST_ID_HEADER] = request.id;
      void reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });

  const metrics = app.get(Metrics);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onResponse', (request, reply, done) => {
      metrics.countRequest(
        request.method,
        request.routeOptions.url ?? 'unmatched',
        answeredStatus(request, reply),
        reply.elapsedTime / 1000,
      );
      done();
    });

  await app.register(securityHeaders, {
    directives: {
      defaultSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      scriptSrc: ["'self'", "'unsafe-inline'"],
    },
  });

  registerHttpCaching(app.getHttpAdapter().getInstance(), { ui: '/docs', document: '/openapi.json' });
  registerPartedBodies(app.getHttpAdapter().getInstance());
  await app.register(fastifyCompress, COMPRESSION);
  await registerWebApp(app.getHttpAdapter().getInstance());

  // Built on the first request to /docs or /openapi.json rather than at boot: scanning every
  // controller is a noticeable part of a cold start, and the document cannot change after it.
  if (config.docsEnabled) {
    SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, config.version), {
      jsonDocumentUrl: 'openapi.json',
      useGlobalPrefix: false,
      customSiteTitle: 'Investment assistant API',
      swaggerOptions: {
        persistAuthorization: true,
        plugins: [swaggerUiDownloadUrl, tokenOnlyAuthorizationPersistence],
      },
    });
  }
}
