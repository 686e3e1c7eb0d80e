import { Injectable, PipeTransform } from '@nestjs/common';
import { ValidationFailedException } from '../../../common/validation/validation-failed.exception';

/** The import body must arrive as text (text/csv or text/plain), not as parsed JSON or nothing. */
@Injectable()
export class CsvBodyPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value === 'string') return value;
    throw new ValidationFailedException([
      { loc: ['body'], msg: 'Input should be CSV text sent as Content-Type: text/csv', type: 'string_type' },
    ]);
  }
}
