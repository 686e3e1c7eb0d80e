import createClient, { type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };
export type Schemas = components['schemas'];
/** `{detail: string}`: every error but a validation failure. */
export type HTTPError = Schemas['HTTPError'];
/** 422: `{detail: [{loc, msg, type, ctx?}]}`. */
export type HTTPValidationError = Schemas['HTTPValidationError'];

/**
 * A typed client of the whole API, e.g. `createApiClient({ baseUrl: 'http://localhost:8000' })`,
 * then `client.GET('/api/v1/portfolio/positions', { headers: { Authorization: `Bearer ${token}` } })`.
 */
export function createApiClient(options: ClientOptions) {
  return createClient<paths>(options);
}
