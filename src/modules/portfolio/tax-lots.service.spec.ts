import { ledgerRow, soleValuedPosition } from '../../../test/factories/ledger.factory';
import { AVERAGE_COST } from './analytics/cost-basis';
import { LedgerEntry, LedgerReplay } from './analytics/ledger-replay';
import { HoldingsService, HoldingsSnapshot } from './holdings.service';
import { TaxLotsService } from './tax-lots.service';

const asOf = new Date('2026-03-06T22:00:00Z');

const buy = (id: number, quantity: number, price: number, side: 'buy' | 'sell' = 'buy') =>
  ledgerRow(id, { quantity, price, side });

const position = (currentPrice: number) =>
  soleValuedPosition({
    symbol: 'AAPL',
    quantity: 15,
    currentPrice,
    costBasis: 1400,
    sector: 'technology',
    lastUpdated: asOf,
  });

function snapshotOf(ledgerVersion: number, ledger: readonly LedgerEntry[], price: number): HoldingsSnapshot {
  return {
    userId: 7,
    ledgerVersion,
    ledger,
    costBasis: AVERAGE_COST,
    replay: {} as LedgerReplay,
    positions: [position(price)],
    asOf,
  };
}

describe('TaxLotsService', () => {
  const ledger = [buy(1, 10, 90), buy(2, 5, 100)];
  let sut: TaxLotsService;

  beforeEach(() => {
    sut = new TaxLotsService({} as HoldingsService);
  });

  it('values the open lots once per ledger version, day and prices', () => {
    const first = sut.openLotsOf(snapshotOf(1, ledger, 120));
    const hitsBefore = sut['valuedLots'].counters.hits;
    const again = sut.openLotsOf(snapshotOf(1, ledger, 120));
    expect(sut['valuedLots'].counters.hits).toBe(hitsBefore + 1);
    expect(again.lots).toEqual(first.lots);
    expect(again.lots[0]).toBe(first.lots[0]);
  });

  it('answers the cached, frozen list of lots itself, whose response rows are serialized once', () => {
    const first = sut.openLotsOf(snapshotOf(1, ledger, 120));

    expect(sut.openLotsOf(snapshotOf(1, ledger, 120)).lots).toBe(first.lots);
    expect(Object.isFrozen(first.lots)).toBe(true);
  });

  it('values the lots again at a new price, and after a ledger change', () => {
    sut.openLotsOf(snapshotOf(1, ledger, 120));
    const repriced = sut.openLotsOf(snapshotOf(1, ledger, 130));
    expect(repriced.lots.map((lot) => [lot.lotId, lot.marketValue, lot.unrealizedPnl])).toEqual([
      [1, 1300, 400],
      [2, 650, 150],
    ]);
    const changed = sut.openLotsOf(snapshotOf(2, [...ledger, buy(3, 1, 110)], 130));
    expect(changed.lots.map((lot) => lot.lotId)).toEqual([1, 2, 3]);
  });

  it('answers one symbol’s lots from the same valuation', () => {
    expect(sut.openLotsOf(snapshotOf(1, ledger, 120), 'MSFT').lots).toEqual([]);
    expect(sut.openLotsOf(snapshotOf(1, ledger, 120), 'AAPL').lots).toHaveLength(2);
  });

  it('sums a year’s realized gains once per ledger version, and again after a change', async () => {
    let snapshot = snapshotOf(1, [...ledger, buy(3, 4, 120, 'sell')], 120);
    sut = new TaxLotsService({ snapshot: async () => snapshot } as unknown as HoldingsService);
    const first = await sut.realized(7, 2026);
    const hitsBefore = sut['realizedByYear'].counters.hits;
    expect(await sut.realized(7, 2026)).toEqual(first);
    expect(sut['realizedByYear'].counters.hits).toBe(hitsBefore + 1);
    expect(first.totals).toEqual({
      proceeds: 480,
      cost: 360,
      gain: 120,
      shortTermGain: 120,
      longTermGain: 0,
    });
    expect((await sut.realized(7, 2026)).portions).toBe(first.portions);
    expect(Object.isFrozen(first.portions)).toBe(true);
    expect((await sut.realized(7, 2025)).portions).toEqual([]);
    snapshot = snapshotOf(2, [...snapshot.ledger, buy(4, 1, 130, 'sell')], 130);
    expect((await sut.realized(7, 2026)).totals.gain).toBe(160);
  });
});
