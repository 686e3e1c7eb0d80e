import { LedgerEntry, TransactionKind } from './ledger-replay';
import { holdingDays, holdingTerm, matchLotsFifo } from './tax-lots';

let nextId = 1;
const trade = (
  symbol: string,
  side: 'buy' | 'sell',
  quantity: number,
  price: number,
  day: string,
  fees = 0,
): LedgerEntry => ({
  id: nextId++,
  symbol,
  side,
  quantity,
  price,
  fees,
  executedAt: new Date(day),
  tradeDate: day,
});

describe('open lots', () => {
  it('closes the oldest lots first and keeps each lot at its own cost per share', () => {
    const b = trade('B', 'buy', 1, 300, '2023-06-01');
    const a2 = trade('A', 'buy', 5, 200, '2025-01-06', 5);
    const lots = matchLotsFifo([
      b,
      trade('A', 'buy', 10, 100, '2024-01-05'),
      a2,
      // 12 sold: the 10 of Jan 2024, then 2 of the 5 of Jan 2025
      trade('A', 'sell', 12, 150, '2025-02-03', 1),
    ]).open;
    expect(lots).toEqual([
      {
        lotId: a2.id,
        symbol: 'A',
        acquiredOn: '2025-01-06',
        quantity: expect.closeTo(3, 12),
        costPerShare: 201,
      },
      { lotId: b.id, symbol: 'B', acquiredOn: '2023-06-01', quantity: 1, costPerShare: 300 },
    ]);
  });

  it('leaves no lot of a symbol sold out', () => {
    expect(
      matchLotsFifo([
        trade('A', 'buy', 0.1, 10, '2024-01-02'),
        trade('A', 'buy', 0.2, 10, '2024-01-03'),
        trade('A', 'sell', 0.3, 10, '2024-01-04'),
      ]).open,
    ).toEqual([]);
  });
});

describe('matchLotsFifo', () => {
  it('realizes each closed lot portion with its share of the proceeds and its own term', () => {
    const sell = trade('A', 'sell', 12, 150, '2025-02-03', 12);
    const { closed } = matchLotsFifo([
      trade('A', 'buy', 10, 100, '2024-01-05'),
      trade('A', 'buy', 5, 200, '2025-01-06', 5),
      sell,
    ]);
    // net proceeds 12 × 150 − 12 = 1,788, i.e. 149 a share
    expect(closed).toEqual([
      {
        symbol: 'A',
        sellId: sell.id,
        acquiredOn: '2024-01-05',
        disposedOn: '2025-02-03',
        quantity: 10,
        proceeds: 1490,
        cost: 1000,
        gain: 490,
        term: 'long',
      },
      {
        symbol: 'A',
        sellId: sell.id,
        acquiredOn: '2025-01-06',
        disposedOn: '2025-02-03',
        quantity: 2,
        proceeds: 298,
        cost: 402,
        gain: -104,
        term: 'short',
      },
    ]);
  });
});

describe('holding period', () => {
  it('is long-term after more than one year', () => {
    expect(holdingTerm('2024-03-12', '2025-03-12')).toBe('short');
    expect(holdingTerm('2024-03-11', '2025-03-12')).toBe('long');
    expect(holdingDays('2023-06-01', '2025-03-12')).toBe(650);
  });
});

describe('a transaction kind the lots do not know', () => {
  it('is refused, never taken for a sell', () => {
    const stored: string = 'spinoff';
    const ledger = [
      trade('AAPL', 'buy', 10, 100, '2024-01-02T15:00:00Z'),
      { ...trade('AAPL', 'sell', 1, 2, '2024-01-03T15:00:00Z'), side: stored as TransactionKind },
    ];
    expect(() => matchLotsFifo(ledger)).toThrow('Unexpected value: spinoff');
  });
});
