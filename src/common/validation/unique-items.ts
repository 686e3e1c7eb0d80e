import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';

/**
 * class-validator's ArrayUnique under the same name, in linear time: its own compares every element
 * with every other (`indexOf` in a `filter`), which a long list turns into seconds of blocked event loop.
 */
export function UniqueItems(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'arrayUnique',
      validator: {
        validate: (value: unknown) => Array.isArray(value) && new Set(value).size === value.length,
        defaultMessage: buildMessage(
          (eachPrefix) => `${eachPrefix}All $property's elements must be unique`,
          options,
        ),
      },
    },
    options,
  );
}
