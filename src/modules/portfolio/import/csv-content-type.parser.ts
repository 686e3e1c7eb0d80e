import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

export const CSV_CONTENT_TYPE = 'text/csv';

/** Teaches Fastify to hand text/csv bodies to the routes as strings (it knows only JSON and text/plain). */
@Injectable()
export class CsvContentTypeParser implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify || fastify.hasContentTypeParser(CSV_CONTENT_TYPE)) return;
    fastify.addContentTypeParser(CSV_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
  }
}
