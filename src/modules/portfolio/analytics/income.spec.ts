import { incomeReport } from './income';
import { LedgerEntry } from './ledger-replay';
import { ValuedPosition } from './position-valuation';

let nextId = 1;
const none = { quantity: 0, price: 0, fees: 0 };
const at = (day: string) => new Date(`${day}T15:00:00Z`);
const buy = (symbol: string, day: string): LedgerEntry => ({
  id: nextId++,
  symbol,
  side: 'buy',
  quantity: 10,
  price: 100,
  fees: 0,
  executedAt: at(day),
  tradeDate: day,
});
const dividend = (symbol: string, amount: number, withholdingTax: number, day: string): LedgerEntry => ({
  id: nextId++,
  symbol,
  side: 'dividend',
  ...none,
  amount,
  withholdingTax,
  executedAt: at(day),
  tradeDate: day,
});
const interest = (amount: number, day: string): LedgerEntry => ({
  id: nextId++,
  symbol: null,
  side: 'interest',
  ...none,
  amount,
  executedAt: at(day),
  tradeDate: day,
});
const held = (symbol: string, costBasis: number, marketValue: number) =>
  ({ symbol, costBasis, marketValue }) as ValuedPosition;

describe('incomeReport', () => {
  const ledger = [
    buy('KO', '2023-01-03'),
    buy('T', '2023-01-03'),
    dividend('KO', 4, 0.6, '2024-03-15'), // more than a year back: in ALL only
    dividend('KO', 5, 0.75, '2024-09-16'),
    dividend('T', 3, 0, '2024-11-01'), // T is sold out by now
    interest(2, '2024-11-20'),
    dividend('KO', 5, 0.75, '2025-03-14'),
  ];
  const positions = [held('KO', 1000, 1250)];

  it('sums dividends and interest after the period start by month and dividends by symbol', () => {
    const sut = incomeReport(ledger, positions, '1Y', '2025-06-30');
    expect(sut.totals).toEqual({ dividendsGross: 13, withholdingTax: 1.5, dividendsNet: 11.5, interest: 2 });
    expect(sut.byMonth).toEqual([
      { month: '2024-09', dividendsGross: 5, withholdingTax: 0.75, dividendsNet: 4.25, interest: 0 },
      { month: '2024-11', dividendsGross: 3, withholdingTax: 0, dividendsNet: 3, interest: 2 },
      { month: '2025-03', dividendsGross: 5, withholdingTax: 0.75, dividendsNet: 4.25, interest: 0 },
    ]);
    expect(sut.bySymbol).toEqual([
      { symbol: 'KO', gross: 10, withholdingTax: 1.5, net: 8.5 },
      { symbol: 'T', gross: 3, withholdingTax: 0, net: 3 },
    ]);
    expect(incomeReport(ledger, positions, 'ALL', '2025-06-30').totals.dividendsGross).toBe(17);
  });

  it('yields the last twelve months of dividends of the symbols held today on their cost and value', () => {
    // KO: 5 + 5 = 10 after 2024-06-30; T's 3 left out (sold); the 4 of March 2024 too old
    const sut = incomeReport(ledger, positions, 'YTD', '2025-06-30');
    expect(sut.trailing12Months).toEqual({ dividendsGross: 10, yieldOnCost: 1, yieldOnValue: 0.8 });
  });

  it('has no yields without positions and nothing at all for an empty ledger', () => {
    expect(incomeReport([], [], 'ALL', '2025-06-30')).toEqual({
      totals: { dividendsGross: 0, withholdingTax: 0, dividendsNet: 0, interest: 0 },
      byMonth: [],
      bySymbol: [],
      trailing12Months: { dividendsGross: 0, yieldOnCost: null, yieldOnValue: null },
    });
  });
});
