// The kinds beyond buy and sell, replayed on one hand-computed ledger:
//   01-02 deposit 10,000                         cash 10,000
//   01-06 buy 10 AAPL @ 150, fees 1              cash  8,499      cost basis 1,501
//   02-14 dividend AAPL 2.50, 0.38 withheld      cash  8,501.12
//   03-03 split AAPL 4:1                         40 shares, cost basis 1,501 (37.525 a share)
//   03-31 interest 1.25                          cash  8,502.37
//   04-01 fee 3 on AAPL, fee 5 on the account    cash  8,494.37
//   05-01 withdrawal 500                         cash  7,994.37
//   05-02 sell 4 AAPL @ 40                       cash  8,154.37   realized 160 − 1,501 × 4/40 = 9.90
import { matchLotsFifo } from './tax-lots';
import {
  cashFlow,
  findCashShortfall,
  findOversell,
  LedgerEntry,
  replayLedger,
  SplitBelowMinimumError,
  UnheldPositionError,
} from './ledger-replay';
import { dailyValuations } from './time-weighted-returns';

let nextId = 1;
const at = (day: string) => new Date(`${day}T15:00:00Z`);
const none = { quantity: 0, price: 0, fees: 0 };
const trade = (
  side: 'buy' | 'sell',
  quantity: number,
  price: number,
  day: string,
  fees = 0,
): LedgerEntry => ({
  id: nextId++,
  symbol: 'AAPL',
  side,
  quantity,
  price,
  fees,
  executedAt: at(day),
  tradeDate: day,
});
const cash = (
  side: 'deposit' | 'withdrawal' | 'interest' | 'fee',
  amount: number,
  day: string,
  symbol: string | null = null,
): LedgerEntry => ({ id: nextId++, symbol, side, ...none, amount, executedAt: at(day), tradeDate: day });
const dividend = (amount: number, withholdingTax: number, day: string, symbol = 'AAPL'): LedgerEntry => ({
  id: nextId++,
  symbol,
  side: 'dividend',
  ...none,
  amount,
  withholdingTax,
  executedAt: at(day),
  tradeDate: day,
});
const split = (splitTo: number, splitFrom: number, day: string, symbol = 'AAPL'): LedgerEntry => ({
  id: nextId++,
  symbol,
  side: 'split',
  ...none,
  splitTo,
  splitFrom,
  executedAt: at(day),
  tradeDate: day,
});

const sell = trade('sell', 4, 40, '2025-05-02');
const ledger = [
  cash('deposit', 10_000, '2025-01-02'),
  trade('buy', 10, 150, '2025-01-06', 1),
  dividend(2.5, 0.38, '2025-02-14'),
  split(4, 1, '2025-03-03'),
  cash('interest', 1.25, '2025-03-31'),
  cash('fee', 3, '2025-04-01', 'AAPL'),
  cash('fee', 5, '2025-04-01'),
  cash('withdrawal', 500, '2025-05-01'),
  sell,
];

describe('replayLedger with every kind', () => {
  it('keeps the cash balance and splits the position without changing its cost', () => {
    const sut = replayLedger(ledger);
    expect(sut.cashBalance).toBeCloseTo(8154.37, 8);
    expect(sut.realizedPnlBySell.get(sell.id)).toBeCloseTo(9.9, 8);
    expect(sut.totalRealizedPnl).toBeCloseTo(9.9, 8);
    expect(sut.positions.get('AAPL')).toEqual({
      symbol: 'AAPL',
      quantity: 36,
      costBasis: expect.closeTo(1350.9, 8) as number,
      realizedPnl: expect.closeTo(9.9, 8) as number,
    });
  });

  it('moves cash by each kind: a sell and a dividend in net, a buy with its fees out, a split not at all', () => {
    expect(ledger.map(cashFlow)).toEqual([
      10_000,
      -1501,
      expect.closeTo(2.12, 10),
      0,
      1.25,
      -3,
      -5,
      -500,
      160,
    ]);
  });

  it('applies a reverse split too: 1:10 leaves a tenth of the shares at ten times the cost each', () => {
    const sut = replayLedger([trade('buy', 100, 2, '2025-01-06'), split(1, 10, '2025-02-03')]);
    expect(sut.positions.get('AAPL')).toMatchObject({ quantity: 10, costBasis: 200 });
  });

  it('starts a ledger of buys alone below zero: buys draw on cash never deposited', () => {
    expect(replayLedger([trade('buy', 2, 100, '2025-01-06', 1)]).cashBalance).toBe(-201);
  });

  it('refuses a dividend on a symbol never held before it, and a split of one not held at its time', () => {
    const earlyDividend = dividend(1, 0, '2025-01-03');
    expect(findOversell([earlyDividend, trade('buy', 1, 100, '2025-01-06')])).toEqual(
      new UnheldPositionError('AAPL', earlyDividend.id, 'dividend'),
    );
    const lateSplit = split(2, 1, '2025-03-01');
    expect(
      findOversell([trade('buy', 1, 100, '2025-01-06'), trade('sell', 1, 110, '2025-02-03'), lateSplit]),
    ).toEqual(new UnheldPositionError('AAPL', lateSplit.id, 'split'));
  });

  it('accepts a dividend paid after the position was sold: it was earned while held', () => {
    const ledgerAfterSale = [
      trade('buy', 1, 100, '2025-01-06'),
      trade('sell', 1, 110, '2025-02-03'),
      dividend(0.25, 0, '2025-02-14'),
    ];
    expect(findOversell(ledgerAfterSale)).toBeNull();
    expect(replayLedger(ledgerAfterSale).cashBalance).toBeCloseTo(10.25, 10);
  });

  it('refuses a position fee on a symbol never held before it, and takes one after a sell-out', () => {
    const earlyFee = cash('fee', 2, '2025-01-03', 'AAPL');
    expect(findOversell([earlyFee, trade('buy', 1, 100, '2025-01-06')])).toEqual(
      new UnheldPositionError('AAPL', earlyFee.id, 'fee'),
    );
    const afterSale = [
      trade('buy', 1, 100, '2025-01-06'),
      trade('sell', 1, 110, '2025-02-03'),
      cash('fee', 2, '2025-02-14', 'AAPL'),
      cash('fee', 3, '2025-02-14'),
    ];
    expect(findOversell(afterSale)).toBeNull();
  });

  it('refuses a split that would leave less than the smallest stored quantity (0.00000001)', () => {
    const second = split(1, 1_000_000, '2025-01-08');
    expect(
      findOversell([trade('buy', 3, 40, '2025-01-06', 1), split(1, 1_000_000, '2025-01-07'), second]),
    ).toEqual(new SplitBelowMinimumError('AAPL', second.id));
    // exactly the smallest quantity is still a position that can be sold
    const exact = [trade('buy', 0.01, 40, '2025-01-06'), split(1, 1_000_000, '2025-01-07')];
    expect(findOversell(exact)).toBeNull();
    expect(replayLedger(exact).positions.get('AAPL')!.quantity).toBeCloseTo(1e-8, 20);
  });
});

describe('findCashShortfall', () => {
  it('names the first entry that takes the running balance below zero, in execution order', () => {
    const buy = trade('buy', 10, 150, '2025-01-06', 1);
    expect(findCashShortfall([cash('deposit', 1000, '2025-01-02'), buy])).toBe(buy);
    const withdrawal = cash('withdrawal', 1, '2025-01-03');
    expect(findCashShortfall([withdrawal, cash('deposit', 1000, '2025-01-05')])).toBe(withdrawal);
  });

  it('is null while cash never falls below zero, reaching exactly zero included', () => {
    expect(findCashShortfall(ledger)).toBeNull();
    expect(
      findCashShortfall([cash('deposit', 1501, '2025-01-02'), trade('buy', 10, 150, '2025-01-06', 1)]),
    ).toBeNull();
  });
});

describe('matchLotsFifo with a split', () => {
  it('multiplies the open lots by the ratio and divides their cost per share, value unchanged', () => {
    const sut = matchLotsFifo(ledger);
    expect(sut.open).toEqual([
      {
        symbol: 'AAPL',
        lotId: ledger[1].id,
        acquiredOn: '2025-01-06',
        quantity: 36,
        costPerShare: expect.closeTo(37.525, 10) as number,
      },
    ]);
    expect(sut.closed).toEqual([
      expect.objectContaining({
        sellId: sell.id,
        quantity: 4,
        proceeds: 160,
        cost: expect.closeTo(150.1, 10) as number,
        gain: expect.closeTo(9.9, 10) as number,
      }),
    ]);
  });
});

describe('dailyValuations with income, fees, splits and cash movements', () => {
  // day 1: buy 10 @ 100, close 100 → V 1000, r 0
  // day 2: dividend 12 with 2 withheld, close 100 → r = (1000 − 1000 + 10) / 1000 = 1%
  // day 3: split 2:1, close 50 → V 20 × 50 = 1000, r 0
  // day 4: fee of 5 on the position, close 50 → r = (1000 − 1000 − 5) / (1000 + 5)
  const closes = [
    { date: '2025-01-06', close: 100 },
    { date: '2025-01-07', close: 100 },
    { date: '2025-01-08', close: 50 },
    { date: '2025-01-09', close: 50 },
  ];
  const holdings = [
    trade('buy', 10, 100, '2025-01-06'),
    dividend(12, 2, '2025-01-07'),
    split(2, 1, '2025-01-08'),
    cash('fee', 5, '2025-01-09', 'AAPL'),
  ];

  it('counts a dividend as income, a position fee as cost and a split as nothing', () => {
    const sut = dailyValuations(holdings, new Map([['AAPL', closes]]), '2025-01-09');
    expect(sut.map(({ date, value, bought, sold }) => ({ date, value, bought, sold }))).toEqual([
      { date: '2025-01-06', value: 1000, bought: 1000, sold: 0 },
      { date: '2025-01-07', value: 1000, bought: 0, sold: 10 },
      { date: '2025-01-08', value: 1000, bought: 0, sold: 0 },
      { date: '2025-01-09', value: 1000, bought: 5, sold: 0 },
    ]);
    expect(sut.map((day) => day.dailyReturn)).toEqual([0, 0.01, 0, -5 / 1005]);
  });

  it('leaves deposits, withdrawals, interest and account fees out: they are the cash account', () => {
    const withCash = [
      cash('deposit', 5000, '2025-01-02'),
      ...holdings,
      cash('interest', 3, '2025-01-07'),
      cash('fee', 1, '2025-01-08'),
      cash('withdrawal', 100, '2025-01-09'),
    ];
    const closesBySymbol = new Map([['AAPL', closes]]);
    expect(dailyValuations(withCash, closesBySymbol, '2025-01-09')).toEqual(
      dailyValuations(holdings, closesBySymbol, '2025-01-09'),
    );
  });
});
