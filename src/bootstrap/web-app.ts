import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_PATHS } from './app-paths';

/** Where `npm run build` writes the web app: web/dist beside src/ and dist/. */
export const WEB_APP_DIR = join(__dirname, '..', '..', 'web', 'dist');

/** Vite names every file under assets/ by its content hash: it never changes under that name. */
const HASHED_ASSETS = 'public, max-age=31536000, immutable';
/** index.html names the current hashes, so the browser asks again before using it. */
const APP_SHELL = 'no-cache';

/**
 * Serves the built web app at `/`: its hashed assets under /assets/ (cached for good), and
 * index.html for each of the app's routes so a reload or a shared link opens the right page.
 * Only those routes: /api, /docs, /openapi.json, the probes and /metrics keep their own answers,
 * and an unknown path its 404. Nothing is served when the app was not built.
 */
export async function registerWebApp(fastify: FastifyInstance, directory = WEB_APP_DIR): Promise<boolean> {
  const indexFile = join(directory, 'index.html');
  if (!existsSync(indexFile)) return false;
  const indexHtml = readFileSync(indexFile);
  await fastify.register(fastifyStatic, {
    root: join(directory, 'assets'),
    prefix: '/assets/',
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders: (response) => response.setHeader('cache-control', HASHED_ASSETS),
  });
  for (const path of APP_PATHS) {
    fastify.get(path, (_request, reply) =>
      reply.header('cache-control', APP_SHELL).type('text/html; charset=utf-8').send(indexHtml),
    );
  }
  return true;
}
