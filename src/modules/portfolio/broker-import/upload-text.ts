// The text of an uploaded export, or why there is none: empty, binary, UTF-16 or another encoding
// than UTF-8. A UTF-8 BOM is dropped (Excel and Fidelity write one).
import { FieldProblems } from '../../../common/errors/field-problems';
import { NOT_UTF8 } from '../import/csv-content-type.parser';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function refuse(message: string): never {
  throw new FieldProblems([{ path: [], message, ctx: { error: message } }]);
}

/** An empty file is a missing one, worded as the other refusals. */
function refuseEmpty(): never {
  const message = 'the file is empty';
  throw new FieldProblems([
    { path: [], type: 'missing', message: `Value error, ${message}`, ctx: { error: message } },
  ]);
}

/** Bytes from a multipart upload, or the text Fastify already decoded from a text/csv body. */
export function uploadText(body: Buffer | string): string {
  if (typeof body === 'string') {
    // The text/csv parser has decoded it strictly already (see CsvContentTypeParser).
    if (body.includes('\u0000')) refuse('the file is binary, not a CSV export');
    return checkedText(body.replace(/^\uFEFF/, ''));
  }
  if (body.length === 0) refuseEmpty();
  if ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff))
    refuse('the file is UTF-16: save it as UTF-8 CSV and upload it again');
  if (body.includes(0)) refuse('the file is binary, not a CSV export');
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    refuse(NOT_UTF8);
  }
  return checkedText(text.replace(/^\uFEFF/, ''));
}

function checkedText(text: string): string {
  if (text.trim() === '') refuseEmpty();
  return text;
}
