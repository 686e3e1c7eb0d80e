import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RawServerDefault } from 'fastify';
import { jsonDecodeIssue, MAX_JSON_DEPTH, nestingDepthExceeds } from '../common/validation/json-body';
import { parseFormEncoded } from '../common/validation/form-encoded';
import { InvalidFieldError } from '../common/errors/domain-errors';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON and form parsers, in place of the ones Nest would register. JSON: Fastify's own parser
 * (prototype poisoning refused), after a strict UTF-8 decoding, and a refusal of nesting deeper
 * than MAX_JSON_DEPTH before any recursive code (class-transformer) sees the value. Form: WHATWG
 * decoding, which never throws on a malformed percent-escape. Errors reach the global filter.
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
    parseJson(request, text, (error, value) => {
      if (error) done(error, undefined);
      else if (nestingDepthExceeds(value, MAX_JSON_DEPTH)) {
        const issue = jsonDecodeIssue(`Nesting deeper than ${MAX_JSON_DEPTH} levels`);
        done(new InvalidFieldError([issue]), undefined);
      } else done(null, value);
    });
  });
  app.useBodyParser('application/x-www-form-urlencoded', {}, (_request, body, done) =>
    done(null, parseFormEncoded(body.toString())),
  );
}
