import type { RouteOptions } from 'fastify';

type RouteHook = (...args: never[]) => unknown;

/**
 * Adds a hook to one route's own hooks (from an `onRoute` hook), after those it already has: a hook
 * only some routes need then costs the others nothing.
 */
export function appendRouteHook(route: RouteOptions, name: string, hook: RouteHook): void {
  const routeHooks = route as unknown as Record<string, RouteHook | RouteHook[] | undefined>;
  const existing = routeHooks[name];
  routeHooks[name] =
    existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
}
