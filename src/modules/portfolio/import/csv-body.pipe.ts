import { Injectable, PipeTransform } from '@nestjs/common';
import { InvalidFieldError } from '../../../common/errors/domain-errors';

/** The import body must arrive as text (text/csv or text/plain), not as parsed JSON or nothing. */
@Injectable()
export class CsvBodyPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value === 'string') return value;
    throw new InvalidFieldError([
      { loc: ['body'], msg: 'Input should be CSV text sent as Content-Type: text/csv', type: 'string_type' },
    ]);
  }
}
