import {
  findOversell,
  findOversells,
  LedgerEntry,
  OversellError,
  replayLedger,
  replayCheckpoint,
  sameReplay,
  TransactionKind,
} from './ledger-replay';

let nextId = 1;
function entry(
  symbol: string,
  side: 'buy' | 'sell',
  quantity: number,
  price: number,
  date: string,
  fees = 0,
  id = nextId++,
): LedgerEntry {
  return {
    id,
    symbol,
    side,
    quantity,
    price,
    fees,
    executedAt: new Date(`${date}T15:00:00Z`),
    tradeDate: date,
  };
}

describe('replayLedger', () => {
  it('accumulates buys at average cost including fees', () => {
    // 10 @ 100 + 1 fee = 1001; 10 @ 110 + 1 fee = 1101 → 20 shares costing 2102
    const sut = replayLedger([
      entry('AAPL', 'buy', 10, 100, '2017-01-03', 1),
      entry('AAPL', 'buy', 10, 110, '2017-02-01', 1),
    ]);
    expect(sut.positions.get('AAPL')).toEqual({
      symbol: 'AAPL',
      quantity: 20,
      costBasis: 2102,
      realizedPnl: 0,
    });
    expect(sut.totalRealizedPnl).toBe(0);
  });

  it('realizes P&L on a sell against the average cost and keeps the average for the rest', () => {
    // average cost = 2100 / 20 = 105; sell 5 @ 120 with 2 fees: 600 - 2 - 525 = 73
    // remaining 15 shares cost 2100 - 525 = 1575 (still 105 each)
    const sell = entry('AAPL', 'sell', 5, 120, '2017-03-01', 2);
    const sut = replayLedger([
      entry('AAPL', 'buy', 10, 100, '2017-01-03'),
      entry('AAPL', 'buy', 10, 110, '2017-02-01'),
      sell,
    ]);
    expect(sut.realizedPnlBySell.get(sell.id)).toBeCloseTo(73, 10);
    expect(sut.totalRealizedPnl).toBeCloseTo(73, 10);
    const position = sut.positions.get('AAPL')!;
    expect(position.quantity).toBe(15);
    expect(position.costBasis).toBeCloseTo(1575, 10);
    expect(position.realizedPnl).toBeCloseTo(73, 10);
  });

  it('replays in execution order whatever the input order (back-dated entries)', () => {
    // chronological: buy 10 @ 50 (Jan), sell 4 @ 60 (Mar) → realized 4 × (60 - 50) = 40,
    // then buy 4 @ 70 (May) → 6 × 50 + 280 = 580 for 10 shares
    const sell = entry('MSFT', 'sell', 4, 60, '2017-03-01');
    const sut = replayLedger([
      entry('MSFT', 'buy', 4, 70, '2017-05-01'),
      sell,
      entry('MSFT', 'buy', 10, 50, '2017-01-02'),
    ]);
    expect(sut.realizedPnlBySell.get(sell.id)).toBeCloseTo(40, 10);
    expect(sut.positions.get('MSFT')!.costBasis).toBeCloseTo(580, 10);
  });

  it('drops a fully sold position but keeps its realized P&L in the total', () => {
    // 3 @ 10 then sell 3 @ 8 with 1 fee: 24 - 1 - 30 = -7
    const sut = replayLedger([
      entry('XOM', 'buy', 3, 10, '2017-01-02'),
      entry('XOM', 'sell', 3, 8, '2017-01-05', 1),
      entry('CVX', 'buy', 1, 100, '2017-01-05'),
    ]);
    expect([...sut.positions.keys()]).toEqual(['CVX']);
    expect(sut.totalRealizedPnl).toBeCloseTo(-7, 10);
  });

  it('treats fractional quantities that sum to the holding as a full sale', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in binary floating point
    const sut = replayLedger([
      entry('V', 'buy', 0.1, 100, '2017-01-02'),
      entry('V', 'buy', 0.2, 100, '2017-01-03'),
      entry('V', 'sell', 0.3, 100, '2017-01-04'),
    ]);
    expect(sut.positions.size).toBe(0);
  });

  it('orders entries at the same instant by id', () => {
    const sut = replayLedger([
      entry('T', 'sell', 5, 30, '2017-01-02', 0, 2),
      entry('T', 'buy', 5, 30, '2017-01-02', 0, 1),
    ]);
    expect(sut.positions.size).toBe(0);
  });

  it('throws an OversellError naming the symbol when a sell exceeds the holding at its date', () => {
    const sell = entry('AAPL', 'sell', 11, 100, '2017-01-04');
    expect(() =>
      replayLedger([
        entry('AAPL', 'buy', 10, 100, '2017-01-03'),
        sell,
        entry('AAPL', 'buy', 5, 100, '2017-01-05'),
      ]),
    ).toThrow(OversellError);
    const error = findOversell([entry('AAPL', 'buy', 10, 100, '2017-01-03'), sell]);
    expect(error).toMatchObject({ symbol: 'AAPL', entryId: sell.id, held: 10, requested: 11 });
  });
});

describe('replayLedger carrying on from an earlier ledger', () => {
  const earlier = Object.freeze([
    entry('AAPL', 'buy', 10, 100, '2017-01-03', 1),
    entry('MSFT', 'buy', 5, 60, '2017-01-04'),
    entry('AAPL', 'sell', 4, 120, '2017-02-01', 2),
    entry('MSFT', 'sell', 5, 70, '2017-02-02'),
  ]);
  const snapshot = (replay: ReturnType<typeof replayLedger>) => ({
    positions: [...replay.positions.values()].map((position) => ({ ...position })),
    realized: [...replay.realizedPnlBySell],
    total: replay.totalRealizedPnl,
  });

  it('gives the same replay as replaying everything, and leaves the earlier replay as it was', () => {
    const before = snapshot(replayLedger(earlier));
    const later = Object.freeze([
      ...earlier,
      entry('AAPL', 'sell', 6, 130, '2017-03-01', 1),
      entry('MSFT', 'buy', 2, 80, '2017-03-02'),
    ]);
    expect(snapshot(replayLedger(later, replayCheckpoint(earlier)))).toEqual(
      snapshot(replayLedger([...later])),
    );
    // AAPL: 10 @ 100 + 1 = 1001; 4 sold at average 100.1 → 6 left costing 600.6, sold at 130 − 1 fee
    expect(replayLedger(later, replayCheckpoint(earlier)).realizedPnlBySell.get(later[4].id)).toBeCloseTo(
      6 * 130 - 1 - 600.6,
      9,
    );
    expect(snapshot(replayLedger(earlier))).toEqual(before);
  });

  it('replays in full when an appended entry is back-dated before the earlier ledger ends', () => {
    const later = Object.freeze([...earlier, entry('MSFT', 'buy', 1, 50, '2017-01-05')]);
    const replay = replayLedger(later, replayCheckpoint(earlier));
    expect(snapshot(replay)).toEqual(snapshot(replayLedger([...later])));
    // the back-dated buy lowers MSFT's average before its sell: (300 + 50) / 6 per share sold
    expect(replay.realizedPnlBySell.get(earlier[3].id)).toBeCloseTo(5 * 70 - (5 * 350) / 6, 9);
  });

  it('finds an oversell among the appended entries', () => {
    const later = [...earlier, entry('AAPL', 'sell', 7, 130, '2017-03-01')];
    expect(findOversell(later, replayCheckpoint(earlier))).toMatchObject({
      symbol: 'AAPL',
      held: 6,
      requested: 7,
    });
  });

  it('ignores a base the ledger does not start with', () => {
    const other = Object.freeze([entry('AAPL', 'buy', 1000, 1, '2016-01-04')]);
    const ledger = Object.freeze([...earlier]);
    expect(snapshot(replayLedger(ledger, replayCheckpoint(other)))).toEqual(
      snapshot(replayLedger([...earlier])),
    );
  });
});

describe('sameReplay', () => {
  it('lets a ledger holding the same trades use the replay already made', () => {
    const first = Object.freeze([entry('AAPL', 'buy', 3, 10, '2017-01-03')]);
    const replayed = replayCheckpoint(first);
    const same = Object.freeze(first.map((each) => ({ ...each })));
    expect(replayLedger(same, sameReplay(replayed, same))).toBe(replayed.replay);
  });
});

describe('replayLedger without a checkpoint', () => {
  it('replays the entries it is given, even an array it has replayed before', () => {
    const buy = entry('AAPL', 'buy', 3, 10, '2017-01-03');
    const ledger = Object.freeze([buy]);
    expect(replayLedger(ledger).positions.get('AAPL')!.quantity).toBe(3);
    buy.quantity = 5;
    expect(replayLedger(ledger).positions.get('AAPL')!.quantity).toBe(5);
  });
});

describe('findOversell', () => {
  const buyJan = entry('AAPL', 'buy', 10, 100, '2017-01-03');
  const buyFeb = entry('AAPL', 'buy', 5, 100, '2017-02-01');
  const sellMar = entry('AAPL', 'sell', 12, 120, '2017-03-01');
  const ledger = [buyJan, buyFeb, sellMar];

  it('accepts a ledger where every sell is covered', () => {
    expect(findOversell(ledger)).toBeNull();
  });

  it('detects that deleting an earlier buy would make a later sell impossible', () => {
    const withoutFebBuy = ledger.filter((candidate) => candidate.id !== buyFeb.id);
    expect(findOversell(withoutFebBuy)).toMatchObject({ symbol: 'AAPL', entryId: sellMar.id, held: 10 });
  });

  it('detects that a back-dated sell would leave a later sell uncovered', () => {
    // 15 held; a sell of 4 back-dated to January leaves 11 for the March sell of 12
    const backDatedSell = entry('AAPL', 'sell', 4, 100, '2017-01-10');
    expect(findOversell([...ledger, backDatedSell])).toMatchObject({ entryId: sellMar.id, held: 11 });
  });

  it('accepts a back-dated buy, which can only add quantity', () => {
    expect(findOversell([...ledger, entry('AAPL', 'buy', 1, 90, '2016-12-01')])).toBeNull();
  });

  it('checks each symbol on its own', () => {
    expect(findOversell([...ledger, entry('MSFT', 'sell', 1, 60, '2017-04-01')])).toMatchObject({
      symbol: 'MSFT',
    });
  });
});

describe('findOversells', () => {
  it('lists every impossible sell, judging each without the earlier impossible ones', () => {
    // AAPL: 10 held; sell 12 (bad), then sell 6 (fine once the 12 is ignored), then sell 6 (bad: 4 left)
    const first = entry('AAPL', 'sell', 12, 100, '2017-01-05');
    const third = entry('AAPL', 'sell', 6, 100, '2017-01-09');
    const msft = entry('MSFT', 'sell', 1, 60, '2017-01-06');
    const sut = findOversells([
      entry('AAPL', 'buy', 10, 100, '2017-01-03'),
      first,
      msft,
      entry('AAPL', 'sell', 6, 100, '2017-01-07'),
      third,
    ]);
    expect(sut.map((violation) => violation.entryId)).toEqual([first.id, msft.id, third.id]);
  });

  it('is empty for a consistent ledger', () => {
    expect(findOversells([entry('AAPL', 'buy', 1, 100, '2017-01-03')])).toEqual([]);
  });
});

describe('a transaction kind the replay does not know', () => {
  it('is refused, never taken for a sell', () => {
    // What an unmigrated reader would meet if the column held a newer kind.
    const stored: string = 'spinoff';
    const ledger = [
      entry('AAPL', 'buy', 10, 100, '2025-01-06'),
      { ...entry('AAPL', 'sell', 1, 2, '2025-01-07'), side: stored as TransactionKind },
    ];
    expect(() => replayLedger(ledger)).toThrow('Unexpected value: spinoff');
  });
});
