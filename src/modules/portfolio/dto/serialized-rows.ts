import { StreamableFile } from '@nestjs/common';
import { partedJson } from '../../../common/http/parted-body';
import { CountedLru } from '../../../common/metrics/cache-counters';
import { seriesVersion } from '../same-series';

/**
 * The most bytes of serialized rows kept: about 45 of the largest answers measured (a 25,000-trade
 * ledger's lots or realized portions, 0.7 MB each), outside the V8 heap.
 */
export const SERIALIZED_ROWS_BYTES = 32 * 1024 * 1024;

/**
 * What an entry costs beside its bytes (the Buffer object, its backing store, the LRU's slot),
 * counted against the bound so that many small entries stay within it too.
 */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * The UTF-8 JSON of frozen lists' response rows, by the list's number. A cached list stands for
 * everything its rows were computed from (user, account, ledger version, lot matching, exchange
 * day, quotes), so a list replaced in its cache is never asked for again and its bytes age out.
 */
const rowsByList = new CountedLru<number, Buffer>('portfolio-serialized-rows', {
  maxSize: SERIALIZED_ROWS_BYTES,
  sizeCalculation: (bytes) => bytes.length + ENTRY_OVERHEAD_BYTES,
});

/**
 * The rows of a list as the bytes a response sends: the lots and realized routes answer thousands
 * of rows from a cached list, and mapping, rounding, serializing and encoding them again on each
 * read was most of a repeated read's work and garbage.
 */
export class SerializedRows<Item extends object, Row> {
  constructor(private readonly toRow: (item: Item) => Row) {}

  /** The UTF-8 of JSON.stringify of the list's rows; kept while the list is frozen and recently read. */
  of(list: readonly Item[]): Buffer {
    if (!Object.isFrozen(list)) return this.serialize(list);
    const number = seriesVersion(list);
    const kept = rowsByList.get(number);
    if (kept !== undefined) return kept;
    const bytes = this.serialize(list);
    rowsByList.set(number, bytes);
    return bytes;
  }

  /** In memory of its own: a small Buffer.from is a slice of a shared 8 KiB pool, which a kept entry would pin. */
  private serialize(list: readonly Item[]): Buffer {
    const text = JSON.stringify(list.map((item) => this.toRow(item)));
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    bytes.write(text);
    return bytes;
  }
}

/** A JSON body of text serialized in full. */
export function jsonText(text: string): StreamableFile {
  return partedJson([Buffer.from(text)]);
}

/** A JSON body: the envelope's text before and after the rows, written around their kept bytes. */
export function jsonAround(before: string, rows: Buffer, after: string): StreamableFile {
  return jsonParts([before, rows, after]);
}

/** A JSON body of the envelope's text written between the kept bytes of one or more lists' rows. */
export function jsonParts(parts: readonly (string | Buffer)[]): StreamableFile {
  return partedJson(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
}
