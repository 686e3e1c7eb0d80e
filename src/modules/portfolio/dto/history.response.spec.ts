import { StreamableFile } from '@nestjs/common';
import { PortfolioHistory } from '../portfolio-history.service';
import { HistoryResponse } from './history.response';

/** What Fastify sends for a serialized object: its JSON text in UTF-8. */
const utf8Json = (value: unknown) => Buffer.from(JSON.stringify(value));
/** The bytes a body sends, once its declared length is checked. */
function bytesOf(body: StreamableFile): Buffer {
  const bytes = body.getStream().read() as Buffer;
  expect(body.getHeaders()).toMatchObject({ type: 'application/json; charset=utf-8', length: bytes.length });
  return bytes;
}

// Sub-cent amounts, a return of -0.00001 (rounded to -0, answered 0), a missing benchmark close and
// a benchmark whose symbol JSON escapes nothing but must be quoted.
const history = (): PortfolioHistory => ({
  period: '1Y',
  benchmark: '^GSPC',
  points: Object.freeze([
    {
      date: '2025-03-11',
      marketValue: 1234.565,
      netInvested: 1000.004,
      cumulativeReturn: -1e-7,
      benchmarkReturn: null,
    },
    {
      date: '2025-03-12',
      marketValue: 2469.1 + 1 / 3,
      netInvested: 2000,
      cumulativeReturn: 0.123456789,
      benchmarkReturn: -0.0123456,
    },
  ]),
  contributions: Object.freeze([
    { symbol: 'AAPL', contribution: 0.1 },
    { symbol: 'BRK.B', contribution: 0.023456789 },
  ]),
  asOf: new Date('2025-03-12T22:00:00.123Z'),
});

describe('HistoryResponse.json', () => {
  it('is the JSON text of the response object, byte for byte', () => {
    const result = history();

    expect(bytesOf(HistoryResponse.json(result))).toEqual(utf8Json(HistoryResponse.from(result)));
  });

  it('serializes the points of a kept chart once; contributions and as_of stay the answer own', () => {
    const result = history();
    HistoryResponse.json(result);
    const stringify = jest.spyOn(JSON, 'stringify');
    const later = {
      ...result,
      contributions: [{ symbol: 'MSFT', contribution: -0.5 }],
      asOf: new Date('2025-03-13T15:00:00Z'),
    };

    const again = HistoryResponse.json(later);

    const serializedLists = stringify.mock.calls.map(([value]) => value).filter(Array.isArray);
    stringify.mockRestore();
    expect(serializedLists).toEqual([[{ symbol: 'MSFT', contribution: -50 }]]);
    expect(bytesOf(again)).toEqual(utf8Json(HistoryResponse.from(later)));
  });

  it('answers an empty chart', () => {
    const result = { ...history(), points: [], contributions: [] };

    expect(bytesOf(HistoryResponse.json(result))).toEqual(utf8Json(HistoryResponse.from(result)));
  });
});
