import { StreamableFile } from '@nestjs/common';
import { soleValuedPosition } from '../../../../test/factories/ledger.factory';
import { ValuedPosition } from '../analytics/position-valuation';
import { PositionsResponse } from './position.response';

const lastUpdated = new Date('2026-03-06T21:00:00.123Z');
/** What Fastify sends for a serialized object: its JSON text in UTF-8. */
const utf8Json = (value: unknown) => Buffer.from(JSON.stringify(value));
/** The bytes a body sends, once its declared length is checked. */
function bytesOf(body: StreamableFile): Buffer {
  const bytes = body.getStream().read() as Buffer;
  expect(body.getHeaders()).toMatchObject({ type: 'application/json; charset=utf-8', length: bytes.length });
  return bytes;
}

// Fractional shares and sub-cent amounts, which the rounding for the wire must meet alike.
const valued = (): readonly ValuedPosition[] =>
  Object.freeze([
    soleValuedPosition({
      symbol: 'BRK.B',
      quantity: 0.123456789,
      currentPrice: 450.005,
      costBasis: 50.0049,
      sector: 'financial',
      lastUpdated,
    }),
    soleValuedPosition({
      symbol: 'T',
      quantity: 3,
      currentPrice: 1 / 3,
      costBasis: 0.999,
      sector: 'unknown',
      lastUpdated,
    }),
  ]);

describe('PositionsResponse.json', () => {
  it('is the JSON text of the response object, byte for byte, without and with the cash', () => {
    const positions = valued();

    expect(bytesOf(PositionsResponse.json(positions))).toEqual(utf8Json(PositionsResponse.from(positions)));
    expect(bytesOf(PositionsResponse.json(positions, 1250.405))).toEqual(
      utf8Json(PositionsResponse.from(positions, 1250.405)),
    );
    expect(bytesOf(PositionsResponse.json(positions, -20))).toEqual(
      utf8Json(PositionsResponse.from(positions, -20)),
    );
  });

  it('serializes the rows of one frozen valuation once', () => {
    const positions = valued();
    const first = PositionsResponse.json(positions);
    const stringify = jest.spyOn(JSON, 'stringify');

    const again = PositionsResponse.json(positions);

    expect(stringify).not.toHaveBeenCalled();
    stringify.mockRestore();
    expect(bytesOf(again)).toEqual(bytesOf(first));
  });

  it('serializes an unfrozen list anew', () => {
    const positions = [...valued()];
    PositionsResponse.json(positions);
    positions.pop();

    expect(bytesOf(PositionsResponse.json(positions))).toEqual(utf8Json(PositionsResponse.from(positions)));
  });
});
