import { HttpException, HttpStatus } from '@nestjs/common';

/** A 429 that also tells the client, through `Retry-After`, when it may try again. */
export class TooManyRequestsException extends HttpException {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(detail, HttpStatus.TOO_MANY_REQUESTS);
  }
}
