import { HttpException, HttpStatus } from '@nestjs/common';
import { ValidationIssue } from './validation-issue';

/** A 422 whose body is the list of issues; the global filter writes it as `{detail: issues}`. */
export class ValidationFailedException extends HttpException {
  constructor(readonly issues: ValidationIssue[]) {
    super({ detail: issues }, HttpStatus.UNPROCESSABLE_ENTITY);
  }
}
