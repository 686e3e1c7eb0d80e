import { fastifyMultipart, FastifyMultipartOptions } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { appendRouteHook } from '../common/http/route-hooks';

type HookName = Parameters<FastifyInstance['addHook']>[0];
type Hook = Parameters<FastifyInstance['addHook']>[1];

export interface ScopedMultipartOptions {
  /** The routes (as registered, prefix included) that read multipart bodies. */
  routes: readonly string[];
  multipart: FastifyMultipartOptions;
}

/**
 * @fastify/multipart with its hooks on the upload routes only. The plugin adds an async onRequest
 * and an async onResponse hook to every route of the app (two promises, a closure and a listener
 * on the response per request) to delete the temporary files of its disk mode; only a route that
 * reads uploads can have such files. Its parser and request methods stay app-wide, as registered
 * by the plugin: a multipart body reaches every route as before (and is read on none but these).
 */
export const scopedMultipart = fastifyPlugin(
  (
    fastify: FastifyInstance,
    { routes, multipart }: ScopedMultipartOptions,
    done: (error?: Error) => void,
  ) => {
    const hooks: [HookName, Hook][] = [];
    const collectingHooks: FastifyInstance = new Proxy(fastify, {
      get(target, key) {
        if (key === 'addHook')
          return (name: HookName, hook: Hook) => {
            hooks.push([name, hook]);
            return collectingHooks;
          };
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    fastify.addHook('onRoute', (route) => {
      if (routes.includes(route.url)) for (const [name, hook] of hooks) appendRouteHook(route, name, hook);
    });
    fastifyMultipart(collectingHooks, multipart, done);
  },
  { name: 'scoped-multipart' },
);
