import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import helmet, { HelmetOptions } from 'helmet';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/**
 * The headers helmet sets with `options`, worked out once: helmet's answer depends only on its
 * options, never on the request, so running it per request (as @fastify/helmet does, building the
 * middleware anew each time) buys nothing but cost.
 */
export function helmetHeaders(options: HelmetOptions): [name: string, value: string][] {
  const response = new RecordingResponse(new IncomingMessage(new Socket()));
  helmet(options)(response.req, response, () => undefined);
  return response.recorded;
}

/** Keeps the names as helmet writes them, and their order. */
class RecordingResponse extends ServerResponse {
  readonly recorded: [name: string, value: string][] = [];

  override setHeader(name: string, value: number | string | readonly string[]): this {
    this.recorded.push([name, String(value)]);
    return super.setHeader(name, value);
  }
}

export interface SecurityHeadersOptions {
  /** The Content-Security-Policy directives, without `upgrade-insecure-requests`. */
  directives: Record<string, string[]>;
}

/**
 * Sets the precomputed headers on every response, on the raw response as helmet does (so they
 * also reach replies written straight to it, such as the Swagger UI). Registered as a plugin
 * where @fastify/helmet was, its hook runs at the same point, after CORS answers preflights.
 *
 * `upgrade-insecure-requests` is sent only to a request that came over HTTPS (directly, or as a
 * trusted proxy's X-Forwarded-Proto says): over plain HTTP on any host but localhost it makes the
 * browser fetch every asset over https://, which that host does not serve, and the docs are blank.
 */
export const securityHeaders = fastifyPlugin(
  async (fastify: FastifyInstance, { directives }: SecurityHeadersOptions) => {
    const overHttp = helmetHeaders({
      contentSecurityPolicy: { directives: { ...directives, upgradeInsecureRequests: null } },
    });
    const overHttps = helmetHeaders({ contentSecurityPolicy: { directives } });
    fastify.addHook('onRequest', (request, reply, done) => {
      for (const [name, value] of request.protocol === 'https' ? overHttps : overHttp) {
        reply.raw.setHeader(name, value);
      }
      done();
    });
  },
  { name: 'security-headers' },
);
