import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';
import { REQUEST_ID_HEADER } from '../../bootstrap/configure-app';

/**
 * One short line per request: its id, method, url, status and response time. No request or
 * response headers: they made the line about 1.2 KB, written on every request (and the bearer
 * token was only kept out by redaction).
 */
export function requestLogOptions(level: string): Options {
  return {
    level,
    genReqId: (request: IncomingMessage) => String(request.headers[REQUEST_ID_HEADER] ?? randomUUID()),
    wrapSerializers: false,
    serializers: {
      req: (request: IncomingMessage) => ({ id: request.id, method: request.method, url: request.url }),
      res: (response: ServerResponse) => ({ statusCode: response.statusCode }),
    },
  };
}
