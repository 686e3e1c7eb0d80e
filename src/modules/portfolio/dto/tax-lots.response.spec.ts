import { StreamableFile } from '@nestjs/common';
import { ClosedLotPortion } from '../analytics/tax-lots';
import { OpenLots, RealizedGains, ValuedTaxLot } from '../tax-lots.service';
import { RealizedResponse, TaxLotsResponse } from './tax-lots.response';

const asOf = new Date('2026-03-06T22:00:00.123Z');
/** What Fastify sends for a serialized object: its JSON text in UTF-8. */
const utf8Json = (value: unknown) => Buffer.from(JSON.stringify(value));
/** The bytes a body sends, once its declared length is checked. */
function bytesOf(body: StreamableFile): Buffer {
  const bytes = body.getStream().read() as Buffer;
  expect(body.getHeaders()).toMatchObject({ type: 'application/json; charset=utf-8', length: bytes.length });
  return bytes;
}

function lot(lotId: number, quantity: number, costPerShare: number, currentPrice: number): ValuedTaxLot {
  const costBasis = quantity * costPerShare;
  const marketValue = quantity * currentPrice;
  return {
    lotId,
    accountId: 3,
    symbol: 'BRK.B',
    acquiredOn: '2025-01-06',
    quantity,
    costPerShare,
    currentPrice,
    costBasis,
    marketValue,
    unrealizedPnl: marketValue - costBasis,
    unrealizedPnlPercent: ((marketValue - costBasis) / costBasis) * 100,
    holdingDays: 424,
    term: 'long',
  };
}

function portion(sellId: number, quantity: number, proceeds: number, cost: number): ClosedLotPortion {
  return {
    symbol: 'AAPL',
    sellId,
    acquiredOn: '2025-01-06',
    disposedOn: '2026-02-03',
    quantity,
    proceeds,
    cost,
    gain: proceeds - cost,
    term: sellId % 2 === 0 ? 'short' : 'long',
  };
}

// Fractional shares, sub-cent amounts and a gain of -0.001 (rounded to -0, answered 0).
const openLots = (): OpenLots => ({
  method: 'specific',
  lots: Object.freeze([lot(12, 0.123456789, 201.123456, 225.5), lot(14, 3, 1 / 3, 0.3333)]),
  asOf,
});

const realized = (): RealizedGains => ({
  method: 'fifo',
  year: 2026,
  portions: Object.freeze([portion(42, 10, 1490.005, 1000), portion(44, 1 / 3, 99.999, 100)]),
  totals: { proceeds: 1590.004, cost: 1100, gain: 490.004, shortTermGain: -0.001, longTermGain: 490.005 },
  asOf,
});

describe('TaxLotsResponse.json', () => {
  it('is the JSON text of the response object, byte for byte', () => {
    const result = openLots();

    expect(bytesOf(TaxLotsResponse.json(result))).toEqual(utf8Json(TaxLotsResponse.from(result)));
  });

  it('serializes the rows of a frozen list once and keeps the rest of the answer current', () => {
    const result = openLots();
    const stringify = jest.spyOn(JSON, 'stringify');
    TaxLotsResponse.json(result);
    const rowsSerialized = stringify.mock.calls.filter(([value]) => Array.isArray(value)).length;
    const later = { ...result, asOf: new Date('2026-03-07T15:00:00Z') };

    const again = TaxLotsResponse.json(later);

    expect(stringify.mock.calls.filter(([value]) => Array.isArray(value))).toHaveLength(rowsSerialized);
    stringify.mockRestore();
    expect(bytesOf(again)).toEqual(utf8Json(TaxLotsResponse.from(later)));
  });

  it('serializes an unfrozen list anew', () => {
    const result = openLots();
    const lots = [...result.lots];
    TaxLotsResponse.json({ ...result, lots });
    lots.pop();

    expect(bytesOf(TaxLotsResponse.json({ ...result, lots }))).toEqual(
      utf8Json(TaxLotsResponse.from({ ...result, lots })),
    );
  });
});

describe('RealizedResponse.json', () => {
  it('is the JSON text of the response object, byte for byte', () => {
    const result = realized();

    expect(bytesOf(RealizedResponse.json(result))).toEqual(utf8Json(RealizedResponse.from(result)));
  });

  it('serializes the portions of a frozen list once; totals and as_of stay the answer own', () => {
    const result = realized();
    RealizedResponse.json(result);
    const stringify = jest.spyOn(JSON, 'stringify');
    const later = { ...result, asOf: new Date('2026-03-07T15:00:00Z') };

    const again = RealizedResponse.json(later);

    expect(stringify.mock.calls.some(([value]) => Array.isArray(value))).toBe(false);
    stringify.mockRestore();
    expect(bytesOf(again)).toEqual(utf8Json(RealizedResponse.from(later)));
  });
});
