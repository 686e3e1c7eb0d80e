import { matchLots } from './tax-lots';
import { findCashShortfall, findOversell, LedgerEntry, OversellError, replayLedger } from './ledger-replay';

let nextId = 1;
function trade(
  accountId: number,
  side: 'buy' | 'sell',
  quantity: number,
  price: number,
  date: string,
  fees = 0,
): LedgerEntry {
  return {
    id: nextId++,
    accountId,
    symbol: 'AAPL',
    side,
    quantity,
    price,
    fees,
    executedAt: new Date(`${date}T15:00:00Z`),
    tradeDate: date,
  };
}

function cash(accountId: number, side: 'deposit' | 'withdrawal', amount: number, date: string): LedgerEntry {
  return {
    id: nextId++,
    accountId,
    symbol: null,
    side,
    quantity: 0,
    price: 0,
    fees: 0,
    amount,
    executedAt: new Date(`${date}T15:00:00Z`),
    tradeDate: date,
  };
}

describe('a ledger of several accounts', () => {
  // Account 1: 10 AAPL at 100 (+ 2 fees); account 2: 10 at 200; then account 2 sells 5 at 300.
  const ledger = [
    trade(1, 'buy', 10, 100, '2024-01-02', 2),
    trade(2, 'buy', 10, 200, '2024-02-01'),
    trade(2, 'sell', 5, 300, '2024-03-01', 1),
  ];

  it('keeps each account’s average cost: a sell removes its own account’s cost', () => {
    const sut = replayLedger(ledger);
    // Account 2's average is 200, not the combined 150.1: realized 5 × 300 − 1 − 5 × 200 = 499.
    expect(sut.realizedPnlBySell.get(ledger[2].id)).toBe(499);
    // Combined: 15 shares, cost 1,002 + 5 × 200 = 2,002.
    expect(sut.positions.get('AAPL')).toEqual({
      symbol: 'AAPL',
      quantity: 15,
      costBasis: 2002,
      realizedPnl: 499,
    });
    expect(sut.totalRealizedPnl).toBe(499);
  });

  it('never closes another account’s lot', () => {
    const { open, closed } = matchLots(ledger, new Map());
    expect(closed).toEqual([expect.objectContaining({ quantity: 5, cost: 1000, gain: 499 })]);
    expect(open.map((lot) => [lot.accountId, lot.lotId, lot.quantity])).toEqual([
      [1, ledger[0].id, 10],
      [2, ledger[1].id, 5],
    ]);
  });

  it('refuses a sell beyond its own account’s shares, whatever the others hold', () => {
    const violation = findOversell([...ledger, trade(2, 'sell', 6, 300, '2024-04-01')]);
    expect(violation).toBeInstanceOf(OversellError);
    expect((violation as OversellError).held).toBe(5);
    expect(findOversell([...ledger, trade(1, 'sell', 10, 300, '2024-04-01')])).toBeNull();
  });

  it('keeps each account’s cash: a withdrawal cannot draw on another account’s deposit', () => {
    const deposits = [cash(1, 'deposit', 100, '2024-01-02')];
    const overdraw = cash(2, 'withdrawal', 50, '2024-01-03');
    expect(findCashShortfall([...deposits, overdraw], deposits)).toBe(overdraw);
    expect(findCashShortfall([...deposits, cash(1, 'withdrawal', 50, '2024-01-03')], deposits)).toBeNull();
  });
});
