import { HttpStatus } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorDetail } from './error-details';

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
