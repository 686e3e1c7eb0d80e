import {
  ApiClient,
  createApiClient,
  formBody,
  HTTPError,
  HTTPValidationError,
  isValidationError,
  paths,
  ValidationIssue,
} from '../../client';
import { TestApp } from '../setup/test-app';

/** The query parameters a GET route declares in the OpenAPI document. */
export type QueryOf<Path extends keyof paths> = paths[Path] extends {
  get: { parameters: { query?: infer Query } };
}
  ? Query
  : never;

/** Something that can sign requests: a `TestUser`, or the pair `login()` answers. */
export interface Credentials {
  headers: { authorization: string };
}

/**
 * The typed client (client/, generated from the OpenAPI document) over the test app's Fastify
 * `inject()`: no socket, the same request and answer a listening server would see, and paths,
 * parameters and bodies checked by `npm run typecheck`.
 *
 *     const api = typedApi(sut);
 *     const { response, data, error } = await api.GET('/api/v1/portfolio/positions', { headers: user.headers });
 *     const asUser = typedApi(sut, user); // every request signed as that user
 *
 * Any header can ride on a call (`{ headers: { authorization: 'Basic abc' } }`), so odd tokens and
 * `X-Forwarded-For` go through the client too. What stays a raw `sut.inject()` in test/e2e is what
 * the types forbid on purpose, because it is the point of its test: malformed or truncated JSON,
 * values of the wrong type (`limit: 'ten'`, a non-integer path id), unknown or missing fields,
 * content types the route does not declare; and what the document does not describe: unknown
 * routes (404), the web app, `/metrics`, the OpenAPI document itself, byte-level wire checks.
 */
export function typedApi(sut: TestApp, signedAs?: Credentials): ApiClient {
  return createApiClient({
    baseUrl: 'http://localhost',
    Request: InjectRequest as unknown as typeof Request,
    fetch: injectFetch(sut) as unknown as (request: Request) => Promise<Response>,
    headers: signedAs?.headers,
  });
}

/** Login, refresh and logout read HTML-form bodies, as OAuth2 password flows send them. */
export const asForm = {
  bodySerializer: formBody,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
};

/**
 * CSV imports send the file as it is, as `text/csv`. The body may be typed as a union with a route's
 * other media types (the broker import's multipart `{ file }`): only a string gets through `fetch`.
 */
export const asCsv = {
  bodySerializer: (csv: unknown) => csv,
  headers: { 'content-type': 'text/csv' },
};

/**
 * What the client hands to `fetch`: the URL, method, headers and serialized body as they are.
 * Undici's `Request` would copy the body into a stream only for `fetch` to read it back, at about a
 * millisecond a call on a loaded machine: more than many requests take to answer through `inject()`.
 */
class InjectRequest {
  readonly method: string;
  readonly headers: Headers;
  readonly body: unknown;

  constructor(
    readonly url: string,
    init: RequestInit,
  ) {
    this.method = init.method ?? 'GET';
    this.headers = new Headers(init.headers);
    this.body = init.body ?? null;
  }
}

/** A `fetch` for openapi-fetch that answers through `inject()`, without a socket. */
function injectFetch(sut: TestApp) {
  return async (request: InjectRequest): Promise<Response> => {
    if (request.body !== null && typeof request.body !== 'string')
      throw new Error('The typed client over inject() sends string bodies only (JSON, forms, CSV)');
    const url = new URL(request.url);
    const answer = await sut.app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      ...(request.body === null ? {} : { payload: request.body }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    const withoutBody = [204, 205, 304].includes(answer.statusCode);
    return new Response(withoutBody ? null : answer.body, { status: answer.statusCode, headers });
  };
}

/** The body of an answer that has one: a test reading it fails here, with the status and error, otherwise. */
export function dataOf<R extends { data?: unknown; error?: unknown; response: Response }>(
  result: R,
): NonNullable<R['data']> {
  if (result.data === undefined || result.data === null)
    throw new Error(`no body: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data as NonNullable<R['data']>;
}

/** The 422 issue list of an answer: a test reading it fails here, with the status and error, otherwise. */
export function issuesOf(result: {
  error?: HTTPError | HTTPValidationError;
  response: Response;
}): ValidationIssue[] {
  if (result.error === undefined || !isValidationError(result.error))
    throw new Error(`no issue list: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.error.detail;
}
