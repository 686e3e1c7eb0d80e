import { ProviderUnavailableError } from '../../common/errors/domain-errors';
import { FakeMarket, stockQuote } from '../../../test/fakes/fake-market';
import { AVERAGE_COST } from './analytics/cost-basis';
import { HoldingsCostBasis, HoldingsLedger, HoldingsService } from './holdings.service';
import { LedgerTransaction } from './ledger-transaction';
import { FakeClock } from '../../../test/fakes/clock';

const at = new Date('2026-03-06T22:00:00Z');

function entry(
  id: number,
  symbol: string,
  side: 'buy' | 'sell',
  quantity: number,
  price: number,
): LedgerTransaction {
  const executedAt = new Date(`2026-01-0${id}T15:00:00Z`);
  return {
    id,
    userId: 7,
    symbol,
    side,
    quantity,
    price,
    fees: 0,
    executedAt,
    note: null,
    realizedPnl: null,
    createdAt: executedAt,
  };
}

describe('HoldingsService', () => {
  let market: FakeMarket;
  let sut: HoldingsService;

  beforeEach(() => {
    market = new FakeMarket();
    market.quotes.set('AAPL', stockQuote('AAPL', 100.004, 98.001, at));
    market.quotes.set('XOM', stockQuote('XOM', 50, 51, at));
    market.sectors.set('AAPL', 'technology');
    market.closes.set('AAPL', [{ date: '2026-03-06', close: 1.5 }]);
    const ledger = [
      entry(1, 'AAPL', 'buy', 10, 90),
      entry(2, 'XOM', 'buy', 4, 60),
      entry(3, 'T', 'buy', 1, 30),
      entry(4, 'T', 'sell', 1, 31),
    ];
    const repository: HoldingsLedger = { ledger: async () => ({ version: 1, entries: ledger }) };
    const averageCost: HoldingsCostBasis = { costBasis: async () => AVERAGE_COST };
    sut = new HoldingsService(repository, market, new FakeClock(at), averageCost);
  });

  it('values every open position from one batched quote call, at cent prices', async () => {
    const snapshot = await sut.snapshot(7);
    expect(market.quoteCalls).toEqual([['AAPL', 'XOM']]);
    // AAPL 100.004 → 100.00 and previous close 98.001 → 98.00: change 2 a share
    expect(
      snapshot.positions.map((position) => [position.symbol, position.currentPrice, position.dayChange]),
    ).toEqual([
      ['AAPL', 100, 20],
      ['XOM', 50, -4],
    ]);
    expect(snapshot.positions.map((position) => position.sector)).toEqual(['technology', 'unknown']);
    expect(snapshot.replay.totalRealizedPnl).toBe(1);
    expect(snapshot.asOf).toEqual(at);
  });

  it('asks for each sector once per process', async () => {
    await sut.snapshot(7);
    await sut.snapshot(7);
    expect(market.profileCalls.sort()).toEqual(['AAPL', 'XOM']);
  });

  it('fails with the spec’s retrieval detail when a held symbol has no quote', async () => {
    market.quotes.set('XOM', null);
    const failure = sut.snapshot(7);
    await expect(failure).rejects.toThrow(ProviderUnavailableError);
    await expect(failure).rejects.toThrow('Failed to retrieve stock data for XOM');
  });

  it('reads daily closes per symbol, empty for a symbol without history', async () => {
    const closes = await sut.dailyCloses(['AAPL', 'NOPE'], '2026-01-01');
    expect(closes).toEqual(
      new Map([
        ['AAPL', [{ date: '2026-03-06', close: 1.5 }]],
        ['NOPE', []],
      ]),
    );
  });
});
