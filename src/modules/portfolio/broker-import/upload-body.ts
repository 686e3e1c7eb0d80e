import { PayloadTooLargeException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { InvalidFieldError } from '../../../common/errors/domain-errors';
import { ErrorDetail } from '../../../common/errors/error-details';

/** The most bytes an export may have, as a text/csv body or a multipart file. */
export const BROKER_IMPORT_MAX_BYTES = 16 * 1024 * 1024;
const MALFORMED_MULTIPART = 'the multipart body is malformed: it needs a boundary and one complete file part';

/** The uploaded export: the file of a multipart/form-data request, or a text/csv (text/plain) body. */
export async function uploadedBody(request: FastifyRequest): Promise<Buffer | string> {
  if (request.isMultipart()) {
    try {
      const file = await request.file();
      if (!file) throw InvalidFieldError.valueError(['body', 'file'], 'the multipart upload has no file');
      return await file.toBuffer();
    } catch (error) {
      if (error instanceof InvalidFieldError) throw error;
      if (error instanceof request.server.multipartErrors.RequestFileTooLargeError)
        throw new PayloadTooLargeException(ErrorDetail.requestBodyTooLarge);
      // Anything else the multipart reader stops at is the body's shape (no boundary, a cut-off part).
      throw InvalidFieldError.valueError(['body'], MALFORMED_MULTIPART);
    }
  }
  if (typeof request.body === 'string') return request.body;
  throw new InvalidFieldError([
    {
      loc: ['body'],
      msg: 'Input should be a brokerage export sent as multipart/form-data (a file) or as Content-Type: text/csv',
      type: 'string_type',
    },
  ]);
}
