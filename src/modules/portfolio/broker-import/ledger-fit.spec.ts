import { LedgerEntry } from '../analytics/ledger-replay';
import { ImportedEntry } from './broker-export';
import { fitToLedger, inRecordingOrder } from './ledger-fit';

const NOW = new Date('2026-01-01T00:00:00Z');

function entry(
  line: number,
  fields: Partial<ImportedEntry> & Pick<ImportedEntry, 'side' | 'date'>,
): ImportedEntry {
  return {
    line,
    symbol: 'AAPL',
    quantity: 0,
    price: 0,
    fees: 0,
    amount: null,
    withholdingTax: null,
    split: null,
    action: fields.side,
    brokerId: null,
    ...fields,
  };
}

const stored: LedgerEntry[] = [
  {
    id: 1,
    symbol: 'AAPL',
    side: 'buy',
    quantity: 10,
    price: 100,
    fees: 0,
    executedAt: new Date('2024-01-02T00:00:00Z'),
    tradeDate: '2024-01-02',
  },
];

describe('fitToLedger', () => {
  it('counts the shares a stored transfer brought in or took out, and an imported transfer out within what is held', () => {
    const transferred: LedgerEntry[] = [
      ...stored,
      {
        id: 2,
        symbol: 'MSFT',
        side: 'transfer_in',
        quantity: 8,
        price: 0,
        fees: 0,
        amount: 2_400,
        acquiredOn: '2020-05-01',
        executedAt: new Date('2024-01-03T00:00:00Z'),
        tradeDate: '2024-01-03',
      },
      {
        id: 3,
        symbol: 'AAPL',
        side: 'transfer_out',
        quantity: 6,
        price: 0,
        fees: 0,
        executedAt: new Date('2024-01-04T00:00:00Z'),
        tradeDate: '2024-01-04',
      },
    ];
    const fit = fitToLedger(
      transferred,
      inRecordingOrder([
        entry(2, { side: 'sell', date: '2024-02-01', symbol: 'MSFT', quantity: 5, price: 400 }),
        entry(3, { side: 'transfer_out', date: '2024-02-02', symbol: 'MSFT', quantity: 3 }),
        entry(4, { side: 'transfer_out', date: '2024-02-03', symbol: 'AAPL', quantity: 5 }),
        entry(5, { side: 'dividend', date: '2024-02-04', symbol: 'MSFT', amount: 1 }),
      ]),
      NOW,
    );
    expect(fit.accepted.map((row) => row.line)).toEqual([2, 3, 5]);
    expect(fit.rejected).toEqual([
      {
        line: 4,
        reason:
          'transfers out 5 AAPL but 4 are held at that date (shares bought before the export began need an opening entry)',
      },
    ]);
  });

  it('replays the rows after the stored ledger: sells within what is held then, the rest rejected with its line', () => {
    const fit = fitToLedger(
      stored,
      inRecordingOrder([
        entry(2, { side: 'sell', date: '2024-03-01', quantity: 20, price: 120 }),
        entry(3, { side: 'sell', date: '2024-02-01', quantity: 4, price: 110 }),
        entry(4, { side: 'sell', date: '2023-12-01', quantity: 1, price: 90 }),
      ]),
      NOW,
    );
    expect(fit.accepted.map((row) => row.line)).toEqual([3]);
    expect(fit.rejected).toEqual([
      {
        line: 4,
        reason:
          'sells 1 AAPL but 0 are held at that date (shares bought before the export began need an opening entry)',
      },
      {
        line: 2,
        reason:
          'sells 20 AAPL but 6 are held at that date (shares bought before the export began need an opening entry)',
      },
    ]);
  });

  it('records within a day the buys before the sells that need them, whatever the file order', () => {
    const fit = fitToLedger(
      [],
      inRecordingOrder([
        entry(2, { side: 'sell', date: '2024-03-01', quantity: 5, price: 120 }),
        entry(3, { side: 'buy', date: '2024-03-01', quantity: 5, price: 110 }),
      ]),
      NOW,
    );
    expect(fit.accepted.map((row) => row.line)).toEqual([3, 2]);
  });

  it("turns added shares into the split's ratio from the holding at its date", () => {
    const fit = fitToLedger(
      stored,
      [entry(2, { side: 'split', date: '2024-06-10', split: { addedShares: 30 } })],
      NOW,
    );
    expect(fit.accepted[0]).toMatchObject({ splitTo: 4, splitFrom: 1 });
    const unheld = fitToLedger(
      [],
      [entry(2, { side: 'split', date: '2024-06-10', split: { addedShares: 30 } })],
      NOW,
    );
    expect(unheld.rejected).toEqual([
      { line: 2, reason: 'no position in AAPL is held at the time of this split' },
    ]);
  });

  it('dates a reinvested dividend paid before its first shares with the buy it paid for', () => {
    const fit = fitToLedger(
      [],
      inRecordingOrder([
        entry(2, { side: 'buy', date: '2024-03-02', quantity: 1, price: 50, pairedWith: 3 }),
        entry(3, { side: 'dividend', date: '2024-03-01', amount: 50, withholdingTax: 0, pairedWith: 2 }),
      ]),
      NOW,
    );
    expect(fit.rejected).toEqual([]);
    expect(fit.accepted.map(({ line, side, date }) => [line, side, date])).toEqual([
      [2, 'buy', '2024-03-02'],
      [3, 'dividend', '2024-03-02'],
    ]);
    expect(fit.accepted[1].action).toBe('dividend (dated with its reinvestment on line 2)');
  });

  it('holds each row to the ledger limits and refuses future dates', () => {
    const fit = fitToLedger(
      [],
      [
        entry(2, { side: 'deposit', symbol: null, date: '2027-01-01', amount: 10 }),
        entry(3, { side: 'buy', date: '2024-01-01', quantity: 1, price: 2e6 }),
      ],
      NOW,
    );
    expect(fit.rejected).toEqual([
      { line: 2, reason: 'the date is in the future' },
      { line: 3, reason: 'price 2000000 is outside 1e-8..1000000' },
    ]);
  });
});
