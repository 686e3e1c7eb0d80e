import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { join } from 'node:path';
import { AppModule } from '../src/app.module';
import { setApiPrefix } from '../src/bootstrap/configure-app';
import { buildOpenApiDocument } from '../src/bootstrap/openapi/openapi-document';

/** The committed document; redocly.yaml points openapi-typescript and the linter at it. */
export const DOCUMENT_FILE = join(__dirname, '..', 'client', 'openapi.json');

/**
 * The document /openapi.json serves, built without a database or a listening server: Nest's
 * preview mode wires the modules and reads the route metadata but instantiates no provider.
 */
export async function documentWithoutServer(version: string): Promise<OpenAPIObject> {
  const app = await NestFactory.create(AppModule, new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  setApiPrefix(app);
  try {
    return buildOpenApiDocument(app, version);
  } finally {
    await app.close();
  }
}

export function documentSource(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
