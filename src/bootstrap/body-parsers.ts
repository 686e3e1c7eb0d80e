import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RawServerDefault } from 'fastify';
import { JSON_BODY_BUDGET, jsonBudgetExcess, jsonDecodeIssue } from '../common/validation/json-body';
import { MAX_FORM_FIELDS, parseFormEncoded, TooManyFormFields } from '../common/validation/form-encoded';
import { InvalidFieldError } from '../common/errors/domain-errors';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON and form parsers, in place of the ones Nest would register, each with the body budget
 * of docs/input-limits.md checked before any transformer or validator sees the value (their cost
 * grows faster than the body: class-transformer's key handling is quadratic, its recursion deep).
 * JSON: a strict UTF-8 decoding, then depth, keys per object and values in all counted on the text,
 * then Fastify's own parser (prototype poisoning refused). Form: WHATWG decoding, which never throws on a
 * malformed percent-escape, and at most MAX_FORM_FIELDS pairs. Errors reach the global filter.
 */
export function registerBodyParsers(app: NestFastifyApplication): void {
  const parseJson = app.getHttpAdapter().getInstance().getDefaultJsonParser('error', 'error');
  app.useBodyParser<RawServerDefault>('application/json', {}, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body);
    } catch {
      done(new InvalidFieldError([jsonDecodeIssue('Invalid UTF-8')]), undefined);
      return;
    }
    const excess = jsonBudgetExcess(text, JSON_BODY_BUDGET);
    if (excess) {
      done(new InvalidFieldError([jsonDecodeIssue(excess)]), undefined);
      return;
    }
    parseJson(request, text, done);
  });
  app.useBodyParser('application/x-www-form-urlencoded', {}, (_request, body, done) => {
    try {
      done(null, parseFormEncoded(body.toString(), MAX_FORM_FIELDS));
    } catch (error) {
      if (!(error instanceof TooManyFormFields)) throw error;
      const issue = { loc: ['body'], msg: `Value error, ${error.message}`, type: 'value_error' };
      done(new InvalidFieldError([{ ...issue, ctx: { error: error.message } }]), undefined);
    }
  });
}
