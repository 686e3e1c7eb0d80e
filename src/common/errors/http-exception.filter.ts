import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { errorCodes as fastifyErrorCodes } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Metrics } from '../metrics/metrics';
import { DEPENDENCY_RETRY_AFTER_SECONDS, isDependencyUnavailable } from './dependency-unavailable';
import { DomainError, DomainErrorKind, InvalidFieldError, RateLimitedError } from './domain-errors';
import { ErrorDetail } from './error-details';
import { FieldProblems } from './field-problems';
import { commandLocation, locatedIssues } from '../validation/located-issues';

const ROUTE_NOT_FOUND = /^Cannot [A-Z]+ /;

/** The one mapping from what a domain failure means to the status the spec gives it. */
const DOMAIN_ERROR_STATUS: Record<DomainErrorKind, HttpStatus> = {
  'not-found': HttpStatus.NOT_FOUND,
  conflict: HttpStatus.CONFLICT,
  'rule-violation': HttpStatus.BAD_REQUEST,
  'invalid-input': HttpStatus.UNPROCESSABLE_ENTITY,
  unauthenticated: HttpStatus.UNAUTHORIZED,
  forbidden: HttpStatus.FORBIDDEN,
  'rate-limited': HttpStatus.TOO_MANY_REQUESTS,
  'provider-unavailable': HttpStatus.INTERNAL_SERVER_ERROR,
  'not-configured': HttpStatus.SERVICE_UNAVAILABLE,
};

/** The status the filter answers an error with: what a stream that already sent 200 reports instead. */
export function errorStatus(exception: unknown): number {
  if (exception instanceof DomainError) return DOMAIN_ERROR_STATUS[exception.kind];
  if (exception instanceof HttpException) return exception.getStatus();
  if (isDependencyUnavailable(exception)) return HttpStatus.SERVICE_UNAVAILABLE;
  return HttpStatus.INTERNAL_SERVER_ERROR;
}

/**
 * The one place errors become responses: `{detail: string}` for every failure, the 422 issue list
 * for validation (a service's `FieldProblems` placed under the part of the request its command
 * came from), 503 with Retry-After when a dependency did not answer in time, and a plain 500
 * for anything unexpected (logged with the request id, never sent).
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(HttpExceptionFilter.name);

  constructor(private readonly metrics: Metrics) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();

    if (exception instanceof DomainError) {
      this.sendDomainError(exception, request, reply);
      return;
    }
    if (exception instanceof HttpException) {
      const parsing = requestParsingFailure(exception, request);
      if (parsing) {
        void reply.status(parsing.status).send(parsing.body);
        return;
      }
      if (exception.getStatus() === HttpStatus.UNAUTHORIZED) {
        void reply.header('WWW-Authenticate', 'Bearer');
      }
      void reply.status(exception.getStatus()).send({ detail: detailOf(exception) });
      return;
    }
    if (isDependencyUnavailable(exception)) {
      this.metrics.dependencyUnavailable.inc();
      this.logger.warn(
        { err: exception, requestId: request?.id, method: request?.method, url: request?.url },
        'A dependency did not answer in time',
      );
      void reply
        .status(HttpStatus.SERVICE_UNAVAILABLE)
        .header('Retry-After', String(DEPENDENCY_RETRY_AFTER_SECONDS))
        .send({ detail: ErrorDetail.serviceUnavailable });
      return;
    }
    this.logger.error(
      { err: exception, requestId: request?.id, method: request?.method, url: request?.url },
      'Unhandled error',
    );
    void reply.status(HttpStatus.INTERNAL_SERVER_ERROR).send({ detail: ErrorDetail.internalServerError });
  }

  private sendDomainError(error: DomainError, request: FastifyRequest, reply: FastifyReply): void {
    const status = DOMAIN_ERROR_STATUS[error.kind];
    if (error instanceof FieldProblems) {
      void reply
        .status(status)
        .send({ detail: locatedIssues(error.problems, commandLocation(request.method)) });
      return;
    }
    if (error instanceof InvalidFieldError) {
      void reply.status(status).send({ detail: error.issues });
      return;
    }
    if (error.kind === 'unauthenticated') void reply.header('WWW-Authenticate', 'Bearer');
    if (error instanceof RateLimitedError) {
      this.metrics.throttleRejections.inc({ route: request.routeOptions?.url ?? 'unmatched' });
      void reply.header('Retry-After', String(error.retryAfterSeconds));
    }
    if (error.kind === 'provider-unavailable') {
      this.logger.warn(
        { err: error.cause ?? error, requestId: request?.id, method: request?.method, url: request?.url },
        error.detail,
      );
    }
    void reply.status(status).send({ detail: error.detail });
  }
}

const PARSING_ERROR_CODES = [
  'FST_ERR_CTP_BODY_TOO_LARGE',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_JSON_BODY',
] as const;
const PARSING_ERROR_CODE_BY_MESSAGE = new Map<string, string>(
  PARSING_ERROR_CODES.map((code) => [new fastifyErrorCodes[code]().message, code]),
);

/**
 * Fastify rejects some requests before any route runs (malformed JSON, oversized or unsupported
 * bodies); Nest hands them over as plain HttpExceptions carrying Fastify's message, which names
 * the Fastify error.
 */
function requestParsingFailure(
  exception: HttpException,
  request: FastifyRequest,
): { status: number; body: unknown } | null {
  if (exception.getStatus() === HttpStatus.UNSUPPORTED_MEDIA_TYPE) {
    return {
      status: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      body: { detail: ErrorDetail.unsupportedMediaType(String(request.headers['content-type'])) },
    };
  }
  switch (PARSING_ERROR_CODE_BY_MESSAGE.get(exception.message)) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: HttpStatus.PAYLOAD_TOO_LARGE, body: { detail: ErrorDetail.requestBodyTooLarge } };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        status: HttpStatus.UNPROCESSABLE_ENTITY,
        body: { detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }] },
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return {
        status: HttpStatus.UNPROCESSABLE_ENTITY,
        body: {
          detail: [
            {
              loc: ['body', 0],
              msg: 'JSON decode error',
              type: 'json_invalid',
              ctx: { error: exception.message },
            },
          ],
        },
      };
    default:
      return null;
  }
}

function detailOf(exception: HttpException): string {
  const response = exception.getResponse();
  const message =
    typeof response === 'string'
      ? response
      : typeof response === 'object' && response !== null && 'message' in response
        ? (response as { message: unknown }).message
        : exception.message;
  if (
    exception.getStatus() === HttpStatus.NOT_FOUND &&
    typeof message === 'string' &&
    ROUTE_NOT_FOUND.test(message)
  ) {
    return ErrorDetail.notFound;
  }
  return typeof message === 'string' ? message : exception.message;
}
