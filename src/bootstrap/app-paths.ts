/**
 * The app's routes (`:name` matches one path segment). The service answers each of them with
 * index.html; every other path keeps its own 404 (web-app.ts).
 */
export const APP_PATHS = [
  '/',
  '/login',
  '/signup',
  '/onboarding',
  '/dashboard',
  '/holdings',
  '/holdings/:symbol',
  '/transactions',
  '/rebalance',
  '/risk',
  '/markets',
  '/assistant',
  '/admin/users',
  '/briefing',
  '/alerts',
  '/inbox',
  '/settings',
] as const;

export type AppPath = (typeof APP_PATHS)[number];
