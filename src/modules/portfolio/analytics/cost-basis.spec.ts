import { AVERAGE_COST, CostBasis, replayByMethod } from './cost-basis';
import { LedgerEntry, replayLedger } from './ledger-replay';
import { LotSelection, matchLots } from './tax-lots';

const trade = (
  id: number,
  symbol: string,
  side: 'buy' | 'sell',
  quantity: number,
  price: number,
  day: string,
  fees = 0,
): LedgerEntry => ({
  id,
  symbol,
  side,
  quantity,
  price,
  fees,
  executedAt: new Date(`${day}T15:00:00Z`),
  tradeDate: day,
});

// Lot 1: 10 A at 100 a share; lot 2: 5 A at (1,000 + 5) / 5 = 201. The sell nets 12 × 150 − 1 = 1,799.
const ledger = [
  trade(1, 'A', 'buy', 10, 100, '2024-01-05'),
  trade(2, 'A', 'buy', 5, 200, '2025-01-06', 5),
  trade(3, 'A', 'sell', 12, 150, '2025-02-03', 1),
  trade(4, 'B', 'buy', 1, 50, '2025-02-04'),
  trade(5, 'B', 'sell', 1, 60, '2025-02-05'),
];

const selectionsOf = (...selections: LotSelection[]) =>
  new Map(
    [...new Set(selections.map((selection) => selection.sellId))].map((sellId) => [
      sellId,
      selections.filter((selection) => selection.sellId === sellId),
    ]),
  );

const specific = (...selections: LotSelection[]): CostBasis => ({
  method: 'specific',
  selections: selectionsOf(...selections),
});

describe('matchLots with selections', () => {
  it('closes the named lots first and the oldest open lots for the rest', () => {
    const { open, closed, problems } = matchLots(ledger, selectionsOf({ sellId: 3, lotId: 2, quantity: 4 }));
    expect(problems).toEqual([]);
    // 4 of lot 2, then the remaining 8 from lot 1
    expect(
      closed
        .filter((portion) => portion.sellId === 3)
        .map((portion) => [portion.acquiredOn, portion.quantity, portion.cost]),
    ).toEqual([
      ['2025-01-06', 4, 804],
      ['2024-01-05', 8, 800],
    ]);
    expect(open.map((lot) => [lot.lotId, lot.quantity, lot.costPerShare])).toEqual([
      [1, 2, 100],
      [2, 1, 201],
    ]);
  });

  it('reports a lot that is closed, of another symbol, later than the sell or too small', () => {
    const later = trade(6, 'A', 'buy', 1, 100, '2025-03-01');
    const { problems } = matchLots(
      [...ledger, later],
      selectionsOf(
        { sellId: 3, lotId: 2, quantity: 6 },
        { sellId: 3, lotId: 4, quantity: 1 },
        { sellId: 3, lotId: 6, quantity: 1 },
        { sellId: 3, lotId: 99, quantity: 1 },
      ),
    );
    expect(problems).toEqual([
      { sellId: 3, lotId: 2, symbol: 'A', reason: 'short', open: 5 },
      { sellId: 3, lotId: 4, symbol: 'A', reason: 'closed', open: 0 },
      { sellId: 3, lotId: 6, symbol: 'A', reason: 'closed', open: 0 },
      { sellId: 3, lotId: 99, symbol: 'A', reason: 'closed', open: 0 },
    ]);
  });

  it('reports a lot an earlier sell has already closed', () => {
    const { problems } = matchLots(
      [...ledger.slice(0, 3), trade(7, 'A', 'sell', 3, 150, '2025-02-10')],
      selectionsOf(
        { sellId: 3, lotId: 2, quantity: 5 },
        { sellId: 3, lotId: 1, quantity: 7 },
        { sellId: 7, lotId: 2, quantity: 3 },
      ),
    );
    expect(problems).toEqual([{ sellId: 7, lotId: 2, symbol: 'A', reason: 'closed', open: 0 }]);
  });
});

describe('replayByMethod', () => {
  it('is the average-cost replay itself under average', () => {
    expect(replayByMethod(ledger, AVERAGE_COST)).toEqual(replayLedger(ledger));
  });

  it('takes cost basis and realized P&L from the FIFO lots under fifo', () => {
    const replay = replayByMethod(ledger, { method: 'fifo', selections: new Map() });
    // open: 3 of lot 2 = 603; sold: 10 of lot 1 and 2 of lot 2 cost 1,402, so 1,799 − 1,402 = 397
    expect(replay.positions.get('A')).toEqual({
      symbol: 'A',
      quantity: 3,
      costBasis: expect.closeTo(603, 9),
      realizedPnl: expect.closeTo(397, 9),
    });
    expect(replay.realizedPnlBySell.get(3)).toBeCloseTo(397, 9);
    // B is sold out: no position, but its sell counts
    expect(replay.positions.has('B')).toBe(false);
    expect(replay.realizedPnlBySell.get(5)).toBeCloseTo(10, 9);
    expect(replay.totalRealizedPnl).toBeCloseTo(407, 9);
  });

  it('honours the selections under specific, and ignores them under fifo', () => {
    const named = specific({ sellId: 3, lotId: 2, quantity: 5 }, { sellId: 3, lotId: 1, quantity: 7 });
    const replay = replayByMethod(ledger, named);
    // sold 5 × 201 + 7 × 100 = 1,705: realized 1,799 − 1,705 = 94; open 3 of lot 1 = 300
    expect(replay.positions.get('A')!.costBasis).toBeCloseTo(300, 9);
    expect(replay.realizedPnlBySell.get(3)).toBeCloseTo(94, 9);
    expect(replay.totalRealizedPnl).toBeCloseTo(104, 9);
    const fifo = replayByMethod(ledger, { method: 'fifo', selections: named.selections });
    expect(fifo.realizedPnlBySell.get(3)).toBeCloseTo(397, 9);
  });

  it('falls back to FIFO under specific for a sell naming no lot', () => {
    expect(replayByMethod(ledger, specific())).toEqual(
      replayByMethod(ledger, { method: 'fifo', selections: new Map() }),
    );
  });
});
