/**
 * The app's routes. The service answers each of them (and anything under the ones ending in `/*`)
 * with index.html; every other path keeps its own 404 (web-app.ts).
 */
export const APP_PATHS = [
  '/',
  '/login',
  '/signup',
  '/dashboard',
  '/holdings',
  '/transactions',
  '/markets',
  '/assistant',
] as const;

export type AppPath = (typeof APP_PATHS)[number];
