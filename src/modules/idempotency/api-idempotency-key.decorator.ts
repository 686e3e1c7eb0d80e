import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_PATTERN,
} from './idempotency-key';

/** Swagger for a write that accepts an `Idempotency-Key` (see docs/idempotency.md). */
export const ApiIdempotencyKey = () =>
  applyDecorators(
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'Optional, chosen by the client (e.g. a UUID), per user. A retry with the same key and the same request ' +
        'within 24 hours gets the first successful answer again, status and body, without executing twice; the ' +
        'same key with a different request is a 422 at ["header", "Idempotency-Key"]. Errors are not stored: a ' +
        'retry after one executes. 1 to 255 printable ASCII characters.',
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
        pattern: IDEMPOTENCY_KEY_PATTERN,
        example: '3f0c9a52-8d1e-4c7b-9a57-0e6d2f1b4c88',
      },
    }),
  );
