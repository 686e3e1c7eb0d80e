import { HttpStatus } from '@nestjs/common';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorDetail } from './error-details';

const REQUEST_HEADER_FIELDS_TOO_LARGE = 431;

/**
 * Fastify's router answers a few malformed URLs itself, before any route or Nest filter runs;
 * this gives those answers the spec's `{detail}` shape instead of Fastify's own.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      void reply.code(HttpStatus.BAD_REQUEST).send({ detail: ErrorDetail.malformedUrlEncoding });
      return;
    case 'FST_ERR_MAX_PARAM_LENGTH':
      void reply.code(HttpStatus.URI_TOO_LONG).send({ detail: ErrorDetail.pathParameterTooLong });
      return;
    default:
      void reply.code(HttpStatus.BAD_REQUEST).send({ detail: ErrorDetail.badRequest });
  }
}

/**
 * A request Node's HTTP parser refuses (a malformed request line or header, oversized headers, a
 * timeout) never reaches Fastify's routing; answered on the socket as Fastify's default handler
 * does, but in the `{detail}` shape.
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [HttpStatus.REQUEST_TIMEOUT, ErrorDetail.requestTimeout]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [REQUEST_HEADER_FIELDS_TOO_LARGE, ErrorDetail.requestHeadersTooLarge]
        : [HttpStatus.BAD_REQUEST, ErrorDetail.badRequest];
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
