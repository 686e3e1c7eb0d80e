import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { InvalidFieldError } from '../../../common/errors/domain-errors';

export const CSV_CONTENT_TYPE = 'text/csv';
export const NOT_UTF8 =
  'the file is not UTF-8 (Windows-1252 or Latin-1?): save it as UTF-8 CSV and upload it again';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Teaches Fastify to hand text/csv bodies to the routes as strings (it knows only JSON and
 * text/plain), decoded strictly: bytes that are not UTF-8 are a 422, not text with replacement
 * characters.
 */
@Injectable()
export class CsvContentTypeParser implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify || fastify.hasContentTypeParser(CSV_CONTENT_TYPE)) return;
    fastify.addContentTypeParser(CSV_CONTENT_TYPE, { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
      try {
        done(null, strictUtf8.decode(body));
      } catch {
        const issue = {
          loc: ['body'],
          msg: `Value error, ${NOT_UTF8}`,
          type: 'value_error',
          ctx: { error: NOT_UTF8 },
        };
        done(new InvalidFieldError([issue]), undefined);
      }
    });
  }
}
