import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';
import { REQUEST_ID_HEADER } from '../../bootstrap/configure-app';
import { acceptedRequestId } from './request-id';

/** The raw request of an authenticated call carries its user's id, for the request log line. */
export interface LoggedRequest extends IncomingMessage {
  userId?: number;
  /** Set by the middleware runner, which rewrites `url` relative to where the logger is mounted. */
  originalUrl?: string;
}

/**
 * One short line per request: its id, method, url, status and response time, and the user id
 * when the request was authenticated. No request or
 * response headers: they made the line about 1.2 KB, written on every request (and the bearer
 * token was only kept out by redaction).
 */
export function requestLogOptions(level: string): Options {
  return {
    level,
    genReqId: (request: IncomingMessage) =>
      acceptedRequestId(request.headers[REQUEST_ID_HEADER]) ?? randomUUID(),
    wrapSerializers: false,
    // Added to the response's line only, once the auth guard has set the id. (`customProps` did
    // the same by building two more child loggers per request, one of them at the response.)
    customSuccessObject: withUserId,
    customErrorObject: (request: LoggedRequest, response: ServerResponse, _error: Error, line: object) =>
      withUserId(request, response, line),
    serializers: {
      req: (request: LoggedRequest) => ({
        id: request.id,
        method: request.method,
        url: request.originalUrl ?? request.url,
      }),
      res: (response: ServerResponse) => ({ statusCode: response.statusCode }),
    },
  };
}

function withUserId(request: LoggedRequest, _response: ServerResponse, line: object): object {
  return request.userId === undefined ? line : { ...line, userId: request.userId };
}
