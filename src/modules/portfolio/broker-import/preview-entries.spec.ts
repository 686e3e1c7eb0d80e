import { packEntries, PreviewEntry, unpackEntries } from './preview-entries';

const dividend: PreviewEntry = {
  line: 7,
  side: 'dividend',
  date: '2024-03-15',
  executedAt: '2024-03-15T00:00:00.000Z',
  symbol: 'MSFT',
  quantity: 0,
  price: 0,
  fees: 0,
  amount: 12.5,
  withholdingTax: 1.88,
  splitTo: null,
  splitFrom: null,
  action: 'Qualified Dividend',
  key: 'schwab:2bD6nN0m8V0bq3b1Xc3bVd6yE3W1u3v6QxGm7rJdS1k',
  accountId: 3,
};
const split: PreviewEntry = {
  ...dividend,
  line: 9,
  side: 'split',
  amount: null,
  withholdingTax: null,
  splitTo: 4,
  splitFrom: 1,
  action: 'Stock Split',
  key: 'schwab:other',
};

describe('preview entries', () => {
  it('store each entry as one array of values and read back the same entries', () => {
    const packed = packEntries([dividend, split]);
    const stored = JSON.parse(JSON.stringify(packed)) as typeof packed;

    expect(stored.rows).toEqual([
      [
        7,
        'dividend',
        '2024-03-15',
        '2024-03-15T00:00:00.000Z',
        'MSFT',
        0,
        0,
        0,
        12.5,
        1.88,
        null,
        null,
        'Qualified Dividend',
        dividend.key,
        3,
      ],
      [
        9,
        'split',
        '2024-03-15',
        '2024-03-15T00:00:00.000Z',
        'MSFT',
        0,
        0,
        0,
        null,
        null,
        4,
        1,
        'Stock Split',
        'schwab:other',
        3,
      ],
    ]);
    expect(unpackEntries(stored)).toStrictEqual([dividend, split]);
  });

  it('read a preview stored as entry objects (before entries were packed) as it is', () => {
    const stored = JSON.parse(JSON.stringify([dividend])) as PreviewEntry[];

    expect(unpackEntries(stored)).toStrictEqual([dividend]);
  });
});
