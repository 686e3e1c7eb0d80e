import { Injectable, PipeTransform } from '@nestjs/common';
import { InvalidFieldError } from '../../../common/errors/domain-errors';

/** Accepts a body that is a JSON array; its entries are checked by the endpoint's own rules. */
@Injectable()
export class JsonArrayBodyPipe implements PipeTransform {
  transform(body: unknown): unknown[] {
    if (body === undefined || body === null) {
      throw new InvalidFieldError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
    }
    if (!Array.isArray(body)) {
      throw new InvalidFieldError([
        { loc: ['body'], msg: 'Input should be a valid list', type: 'list_type' },
      ]);
    }
    return body;
  }
}
