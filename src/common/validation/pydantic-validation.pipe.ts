import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { toPydanticIssues } from './pydantic-issues';
import { ValidationFailedException } from './validation-failed.exception';
import { ValidationLocation } from './validation-issue';

class ClassValidatorErrors extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('validation failed');
  }
}

const LOCATIONS: Partial<Record<ArgumentMetadata['type'], ValidationLocation>> = {
  body: 'body',
  query: 'query',
  param: 'path',
};
const NON_DTO_TYPES: unknown[] = [String, Boolean, Number, Array, Object, Buffer, Date];

/**
 * The global pipe: class-validator DTOs for body, query and path, failures reported as 422 with
 * `loc` starting at the place the value came from.
 */
@Injectable()
export class PydanticValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidUnknownValues: true,
      validationError: { target: true, value: true },
      exceptionFactory: (errors) => new ClassValidatorErrors(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const location = LOCATIONS[metadata.type];
    const isDto = typeof metadata.metatype === 'function' && !NON_DTO_TYPES.includes(metadata.metatype);
    if (location === 'body' && isDto) {
      // No body at all reads as an empty object, so each required field is reported by name.
      if (value === undefined) value = {};
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new ValidationFailedException([
          {
            loc: ['body'],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            type: 'model_attributes_type',
          },
        ]);
      }
    }
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (error instanceof ClassValidatorErrors && location) {
        throw new ValidationFailedException(toPydanticIssues(error.errors, [location]));
      }
      throw error;
    }
  }
}
