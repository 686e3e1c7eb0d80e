import { ConfigType } from '@nestjs/config';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { appConfig } from '../config/app.config';
import { registerBodyParsers } from './body-parsers';
import { securityHeaders } from './security-headers';

export const API_PREFIX = 'api/v1';
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Everything about the HTTP surface that is not a route: prefix, security headers, CORS and the
 * API docs.
 * Shared by main.ts and the tests, so both serve exactly the same app.
 */
export async function configureApp(app: NestFastifyApplication): Promise<void> {
  const config = app.get<ConfigType<typeof appConfig>>(appConfig.KEY);
  app.setGlobalPrefix(API_PREFIX);
  app.enableShutdownHooks();
  registerBodyParsers(app);
  if (config.corsOrigins) app.enableCors({ origin: config.corsOrigins, credentials: true });

  // One id per request, taken from the caller's X-Request-Id when given: echoed back, and written
  // where the request logger reads it, so the logs and the client quote the same id.
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request, reply) => {
      request.raw.headers[REQUEST_ID_HEADER] = request.id;
      void reply.header(REQUEST_ID_HEADER, request.id);
    });

  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        scriptSrc: ["'self'", "'unsafe-inline'"],
      },
    },
  });

  // Built on the first request to /docs or /openapi.json rather than at boot: scanning every
  // controller is a noticeable part of a cold start, and the document cannot change after it.
  const buildDocument = (): OpenAPIObject =>
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Investment assistant API')
        .setDescription(
          'Accounts, market data, news with server-side sentiment, portfolio analytics, preferences and administration. ' +
            'Errors are `{detail: string}`; validation failures are 422 `{detail: [{loc, msg, type, ctx?}]}`.',
        )
        .setVersion(config.version)
        .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
        .build(),
    );
  SwaggerModule.setup('docs', app, buildDocument, {
    jsonDocumentUrl: 'openapi.json',
    useGlobalPrefix: false,
  });
}
