import { StreamableFile } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { Readable } from 'node:stream';
import { appendRouteHook } from './route-hooks';

/** What Fastify answers for a serialized object. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A body written to the socket part after part, without joining them: a large answer around bytes
 * kept between requests (a cached list's rows) would otherwise be copied into fresh memory on
 * every read.
 */
export class PartedBody extends Readable {
  constructor(readonly parts: readonly Buffer[]) {
    super({ read: () => undefined });
    for (const part of parts) this.push(part);
    this.push(null);
  }
}

/** A JSON answer sent in parts, with its length (so it goes out with Content-Length, not chunked). */
export function partedJson(parts: readonly Buffer[]): StreamableFile {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  return new StreamableFile(new PartedBody(parts), { type: JSON_CONTENT_TYPE, length });
}

/** The route configuration of a route that answers with `partedJson`. */
const PARTED_BODY_CONFIG = { partedBody: true } as const;

/** Marks a route that answers with `partedJson`, so that it gets the hook `registerPartedBodies` adds. */
export const SendsPartedBody = () => RouteConfig(PARTED_BODY_CONFIG);

/**
 * Joins a parted body into one buffer when the client accepts an encoding: compression takes a
 * buffer in one synchronous call, where a stream went through zlib's stream path at twice the CPU.
 * Added to the marked routes only, and registered before compression so that it runs first.
 */
export function registerPartedBodies(fastify: FastifyInstance): void {
  const joinForEncoding: onSendHookHandler = (request, _reply, payload, done) => {
    if (payload instanceof PartedBody && request.headers['accept-encoding'] !== undefined) {
      return done(null, Buffer.concat(payload.parts));
    }
    done(null, payload);
  };
  fastify.addHook('onRoute', (route) => {
    const config = route.config as { partedBody?: boolean } | undefined;
    if (config?.partedBody === PARTED_BODY_CONFIG.partedBody)
      appendRouteHook(route, 'onSend', joinForEncoding);
  });
}
