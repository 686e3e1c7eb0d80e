export * from './preference-values';
export type { Preferences } from './preferences';
