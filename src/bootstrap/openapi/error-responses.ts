import type { ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorDetail } from '../../common/errors/error-details';

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The two error bodies the exception filter writes, as FastAPI names them. */
export const ERROR_SCHEMAS: Record<string, SchemaObject> = {
  HTTPError: {
    type: 'object',
    description: 'Every error except a validation failure.',
    required: ['detail'],
    properties: { detail: { type: 'string', example: ErrorDetail.notFound } },
  },
  ValidationIssue: {
    type: 'object',
    description: 'One invalid input, in the shape Pydantic v2 reports it.',
    required: ['loc', 'msg', 'type'],
    properties: {
      loc: {
        type: 'array',
        description: 'Where: `body`, `query` or `path`, then field names and list indexes.',
        items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        example: ['body', 'email'],
      },
      msg: { type: 'string', example: 'Field required' },
      type: { type: 'string', example: 'missing' },
      ctx: { type: 'object', description: 'Parameters of the failed rule.', additionalProperties: true },
    },
  },
  HTTPValidationError: {
    type: 'object',
    description: 'A validation failure: every invalid input of the request.',
    required: ['detail'],
    properties: { detail: { type: 'array', items: schemaRef('ValidationIssue') } },
  },
};

export const HTTP_ERROR_CONTENT = { 'application/json': { schema: schemaRef('HTTPError') } };
export const VALIDATION_ERROR_CONTENT = { 'application/json': { schema: schemaRef('HTTPValidationError') } };

/** The response each cross-cutting failure gets, where an operation does not describe its own. */
export const STANDARD_ERROR_RESPONSES = {
  401: {
    description: `Missing, invalid, expired or revoked access token: \`${ErrorDetail.couldNotValidateCredentials}\``,
  },
  403: {
    description: `The token's user has been deactivated since it was issued: \`${ErrorDetail.inactiveUser}\``,
  },
  413: { description: `The body is larger than the service reads: \`${ErrorDetail.requestBodyTooLarge}\`` },
  415: { description: 'A body type the operation does not read: `Unsupported media type: <type>`' },
  422: { description: 'Invalid input: one issue per invalid value, at its `loc`' },
  500: {
    description: `An unexpected failure, logged with the request id: \`${ErrorDetail.internalServerError}\``,
  },
} satisfies Record<number, ResponseObject>;

export const SUPERUSER_ONLY_403 =
  `The caller is not a superuser: \`${ErrorDetail.adminAccessRequired}\`; or the token's user has been ` +
  `deactivated since it was issued: \`${ErrorDetail.inactiveUser}\``;

export const RESPONSE_HEADERS: Record<number, ResponseObject['headers']> = {
  401: { 'WWW-Authenticate': { description: 'Always `Bearer`.', schema: { type: 'string' } } },
  429: {
    'Retry-After': {
      description: 'Seconds to wait before trying again.',
      schema: { type: 'integer', minimum: 1 },
    },
  },
};
