import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { Metrics } from '../metrics/metrics';
import {
  BadRequestException,
  HttpException,
  Logger,
  NotFoundException,
  PayloadTooLargeException,
} from '@nestjs/common';
import { errorCodes } from 'fastify';
import {
  ConflictError,
  ForbiddenError,
  InvalidFieldError,
  NotConfiguredError,
  NotFoundError,
  ProviderUnavailableError,
  RateLimitedError,
  RuleViolationError,
  UnauthenticatedError,
} from './domain-errors';
import { FieldProblems } from './field-problems';
import { HttpExceptionFilter } from './http-exception.filter';

class FakeReply {
  statusCode = 200;
  headers: Record<string, string> = {};
  body: unknown;
  status(code: number) {
    this.statusCode = code;
    return this;
  }
  header(name: string, value: string) {
    this.headers[name] = value;
    return this;
  }
  send(body: unknown) {
    this.body = body;
    return this;
  }
}

function respond(exception: unknown, method = 'GET'): FakeReply {
  const reply = new FakeReply();
  const request = { id: 'req-1', method, url: '/x', headers: { 'content-type': 'text/xml' } };
  const host = new ExecutionContextHost([request, reply]);
  new HttpExceptionFilter(new Metrics()).catch(exception, host);
  return reply;
}

describe('HttpExceptionFilter', () => {
  it("places a service's field problems under the body of a POST and the query of a GET", () => {
    const problems = new FieldProblems([{ path: ['lots', 0, 'lot_id'], message: 'lot 7 is named twice' }]);
    expect(respond(problems, 'POST')).toMatchObject({
      statusCode: 422,
      body: {
        detail: [
          {
            loc: ['body', 'lots', 0, 'lot_id'],
            msg: 'Value error, lot 7 is named twice',
            type: 'value_error',
          },
        ],
      },
    });
    expect(respond(FieldProblems.invalid(['from'], 'from must not be after to'))).toMatchObject({
      statusCode: 422,
      body: {
        detail: [
          { loc: ['query', 'from'], msg: 'Value error, from must not be after to', type: 'value_error' },
        ],
      },
    });
  });

  it('writes an HttpException as {detail} with its status', () => {
    const reply = respond(new BadRequestException('Email already registered'));
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toEqual({ detail: 'Email already registered' });
  });

  it("answers Nest's unknown-route 404 with the plain `Not Found`", () => {
    const reply = respond(new NotFoundException('Cannot GET /api/v1/nowhere'));
    expect(reply.body).toEqual({ detail: 'Not Found' });
  });

  it('keeps a domain 404 detail that merely starts like a route message', () => {
    expect(respond(new NotFoundException('Stock ZZZZ not found')).body).toEqual({
      detail: 'Stock ZZZZ not found',
    });
  });

  it('adds WWW-Authenticate to 401s and Retry-After to 429s', () => {
    expect(respond(new HttpException('Could not validate credentials', 401)).headers).toEqual({
      'WWW-Authenticate': 'Bearer',
    });
    const throttled = respond(new RateLimitedError('Too many failed login attempts, try again later', 42));
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers).toEqual({ 'Retry-After': '42' });
  });

  it("maps Fastify's body-parsing failures to the spec's shapes", () => {
    const invalidJson = respond(
      new HttpException(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY().message, 400),
    );
    expect(invalidJson.statusCode).toBe(422);
    expect(invalidJson.body).toMatchObject({ detail: [{ type: 'json_invalid', loc: ['body', 0] }] });
    const emptyJson = respond(new HttpException(new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY().message, 400));
    expect(emptyJson.body).toEqual({ detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }] });
    const tooLarge = respond(
      new PayloadTooLargeException(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE().message),
    );
    expect(tooLarge.body).toEqual({ detail: 'Request body too large' });
    const mediaType = respond(
      new HttpException(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE('text/xml').message, 415),
    );
    expect(mediaType.statusCode).toBe(415);
    expect(mediaType.body).toEqual({ detail: 'Unsupported media type: text/xml' });
  });

  it('answers anything unexpected with a plain 500 and never its message, logging the cause', () => {
    const log = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const cause = new Error('relation "sessions" does not exist');
    const reply = respond(cause);
    expect(reply.statusCode).toBe(500);
    expect(reply.body).toEqual({ detail: 'Internal server error occurred' });
    expect(log).toHaveBeenCalledWith(
      expect.objectContaining({ err: cause, requestId: 'req-1' }),
      'Unhandled error',
    );
    log.mockRestore();
  });

  describe('a dependency that cannot be reached', () => {
    const connectError = (code: string, address: string) =>
      Object.assign(new Error(`connect ${code} ${address}`), { code, syscall: 'connect', address });

    it.each([
      ['a refused TCP connection', connectError('ECONNREFUSED', '127.0.0.1:5432')],
      // the embedded server's unix socket is gone (it is shutting down or was stopped)
      ['a missing unix socket', connectError('ENOENT', '/tmp/ia-pg-x/.s.PGSQL.5432')],
    ])('answers %s with 503 and Retry-After', (_case, error) => {
      jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const reply = respond(error);
      expect(reply.statusCode).toBe(503);
      expect(reply.headers).toEqual({ 'Retry-After': '5' });
      expect(reply.body).toEqual({ detail: 'Service temporarily unavailable' });
      jest.restoreAllMocks();
    });

    it('still answers a missing file that is not a connection with 500', () => {
      jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const missing = Object.assign(new Error("ENOENT: no such file or directory, open 'x'"), {
        code: 'ENOENT',
        syscall: 'open',
      });
      expect(respond(missing).statusCode).toBe(500);
      jest.restoreAllMocks();
    });
  });

  describe('domain errors', () => {
    it.each([
      [new NotFoundError('User not found'), 404],
      [new ConflictError('User preferences already exist'), 409],
      [new RuleViolationError('Cannot delete your own account'), 400],
      [new ForbiddenError('Forbidden - Admin access required'), 403],
      [new ProviderUnavailableError('Failed to retrieve stock data for AAPL'), 500],
      [new NotConfiguredError('Social sentiment is not available. Set FINNHUB_API_KEY to enable it'), 503],
    ])('writes %p as {detail} with status %p', (error, status) => {
      jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const reply = respond(error);
      expect(reply.statusCode).toBe(status);
      expect(reply.body).toEqual({ detail: error.detail });
      expect(reply.headers).toEqual({});
      jest.restoreAllMocks();
    });

    it('challenges an unauthenticated caller and tells a rate-limited one when to retry', () => {
      const unauthenticated = respond(new UnauthenticatedError('Could not validate credentials'));
      expect(unauthenticated.statusCode).toBe(401);
      expect(unauthenticated.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
      const limited = respond(new RateLimitedError('Too many requests, try again later', 7));
      expect(limited.statusCode).toBe(429);
      expect(limited.headers).toEqual({ 'Retry-After': '7' });
      expect(limited.body).toEqual({ detail: 'Too many requests, try again later' });
    });

    it('writes an invalid field as the 422 list with its field path', () => {
      const reply = respond(InvalidFieldError.valueError(['query', 'from'], 'from must be before to'));
      expect(reply.statusCode).toBe(422);
      expect(reply.body).toEqual({
        detail: [{ loc: ['query', 'from'], msg: 'Value error, from must be before to', type: 'value_error' }],
      });
    });

    it('logs the cause of a provider failure but never sends it', () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const cause = new Error('socket hang up at 10.0.0.3');
      const reply = respond(new ProviderUnavailableError('Failed to search symbols', { cause }));
      expect(JSON.stringify(reply.body)).not.toContain('socket');
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ err: cause }), 'Failed to search symbols');
      warn.mockRestore();
    });
  });
});
