import { matchLots } from './tax-lots';
import { dailyValuations } from './time-weighted-returns';
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

describe('a transfer of shares between accounts', () => {
  const buy = trade(1, 'buy', 10, 100, '2024-01-02');
  const leg = (
    accountId: number,
    side: 'transfer_in' | 'transfer_out',
    extra: Partial<LedgerEntry> = {},
  ): LedgerEntry => ({
    ...trade(accountId, 'buy', 4, 0, '2024-01-03'),
    side,
    price: 0,
    ...extra,
  });
  const sent = leg(1, 'transfer_out');
  const received = leg(2, 'transfer_in', { amount: 400, acquiredOn: '2024-01-02', transferOf: sent.id });
  const closes = new Map([
    [
      'AAPL',
      [
        { date: '2024-01-02', close: 100 },
        { date: '2024-01-03', close: 110 },
        { date: '2024-01-04', close: 121 },
      ],
    ],
  ]);

  it('moves quantity and cost, realizing nothing', () => {
    const sut = replayLedger([buy, sent, received]);
    expect(sut.positions.get('AAPL')).toEqual({
      symbol: 'AAPL',
      quantity: 10,
      costBasis: 1000,
      realizedPnl: 0,
    });
    expect(replayLedger([buy, sent]).positions.get('AAPL')).toMatchObject({ quantity: 6, costBasis: 600 });
    const { open } = matchLots([buy, sent, received], new Map());
    expect(open.map((lot) => [lot.accountId, lot.acquiredOn, lot.quantity, lot.costPerShare])).toEqual([
      [1, '2024-01-02', 6, 100],
      [2, '2024-01-02', 4, 100],
    ]);
  });

  it('is no flow for the holdings of every account together: their returns are as without it', () => {
    const returns = (ledger: LedgerEntry[]) =>
      dailyValuations(ledger, closes, '2024-01-04').map((day) => [
        day.date,
        day.dailyReturn,
        day.bought,
        day.sold,
      ]);
    expect(returns([buy, sent, received])).toEqual(returns([buy]));
  });

  it('is a flow of the account it leaves, at the close of its day', () => {
    const days = dailyValuations([buy, sent], closes, '2024-01-04');
    // Day 2: all 10 shares rise to 110 (+10%); 4 of them leave at that close, 440.
    expect(days[1]).toMatchObject({ date: '2024-01-03', sold: 440, value: 660 });
    expect(days[1].dailyReturn).toBeCloseTo(0.1, 10);
  });
});
