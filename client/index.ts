import createClient, { type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };
export type Schemas = components['schemas'];
/** `{detail: string}`: every error but a validation failure. */
export type HTTPError = Schemas['HTTPError'];
/** 422: `{detail: [{loc, msg, type, ctx?}]}`. */
export type HTTPValidationError = Schemas['HTTPValidationError'];
export type ValidationIssue = Schemas['ValidationIssue'];
export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * A typed client of the whole API: paths, parameters, bodies, responses and error bodies come
 * from client/schema.d.ts, generated from the OpenAPI document.
 *
 *     const api = createApiClient({ baseUrl: 'http://localhost:8000', headers: { Authorization: `Bearer ${token}` } });
 *     const { data, error } = await api.GET('/api/v1/portfolio/positions');
 */
export function createApiClient(options: ClientOptions) {
  return createClient<paths>(options);
}

/** Tells the 422 issue list from the `{detail: string}` of every other error. */
export function isValidationError(error: HTTPError | HTTPValidationError): error is HTTPValidationError {
  return Array.isArray(error.detail);
}

/** Login and refresh read HTML-form bodies, as OAuth2 password flows send them. */
export function formBody(body: Record<string, string>): string {
  return new URLSearchParams(body).toString();
}

export { chatEvents, notificationEvents, readServerSentEvents } from './event-stream';
export type { ChatStreamEvent, NotificationStreamEvent, ServerSentEvent } from './event-stream';
export { AuthSession } from './auth-session';
export type { AuthSessionOptions, TabChannel, TabMessage, TokenPair, TokenStorage } from './auth-session';
