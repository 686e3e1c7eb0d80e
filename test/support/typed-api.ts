import { ApiClient, createApiClient, formBody } from '../../client';
import { TestApp } from '../setup/test-app';

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
    fetch: injectFetch(sut),
    headers: signedAs?.headers,
  });
}

/** Login, refresh and logout read HTML-form bodies, as OAuth2 password flows send them. */
export const asForm = {
  bodySerializer: formBody,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
};

/** CSV imports send the file as it is, as `text/csv`. */
export const asCsv = {
  bodySerializer: (csv: string) => csv,
  headers: { 'content-type': 'text/csv' },
};

/** A `fetch` for openapi-fetch that answers through `inject()`, without a socket. */
export function injectFetch(sut: TestApp): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const payload = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const answer = await sut.app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      ...(payload === undefined ? {} : { payload }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    const withoutBody = [204, 205, 304].includes(answer.statusCode);
    return new Response(withoutBody ? null : answer.rawPayload, { status: answer.statusCode, headers });
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
