/** What a client-chosen X-Request-Id may be (it is echoed and logged); anything else gets a generated id. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function acceptedRequestId(header: string | string[] | undefined): string | null {
  return typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : null;
}
