export type { User } from './user';
