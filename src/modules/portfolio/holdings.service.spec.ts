import { ledgerRow } from '../../../test/factories/ledger.factory';
import { ProviderUnavailableError } from '../../common/errors/domain-errors';
import { FakeMarket, stockQuote } from '../../../test/fakes/fake-market';
import { AVERAGE_COST, CostBasis } from './analytics/cost-basis';
import { HoldingsAccounts, HoldingsCostBasis, HoldingsLedger, HoldingsService } from './holdings.service';
import { LedgerTransaction } from './ledger-transaction';
import { FakeClock } from '../../../test/fakes/clock';

const at = new Date('2026-03-06T22:00:00Z');
/** The user's one account, 3. */
const accounts: HoldingsAccounts = {
  find: async (userId, id) =>
    id === 3
      ? {
          id,
          userId,
          name: 'Default',
          kind: 'taxable',
          brokerage: null,
          openedOn: null,
          isDefault: true,
          createdAt: at,
        }
      : null,
};

const entry = (id: number, symbol: string, side: 'buy' | 'sell', quantity: number, price: number) =>
  ledgerRow(id, { symbol, side, quantity, price });

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
    sut = new HoldingsService(repository, market, new FakeClock(at), averageCost, accounts);
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

  it('asks for each sector once while it is kept (a day)', async () => {
    await sut.snapshot(7);
    await sut.snapshot(7);
    expect(market.profileCalls.sort()).toEqual(['AAPL', 'XOM']);
  });

  it('answers the same frozen valuation while the quotes and sectors are unchanged', async () => {
    const first = await sut.snapshot(7);

    const second = await sut.snapshot(7);

    expect(second.positions).toBe(first.positions);
    expect(Object.isFrozen(second.positions)).toBe(true);
    expect(second.positions.every((position) => Object.isFrozen(position))).toBe(true);
  });

  it('values the positions anew when a quote moves', async () => {
    const first = await sut.snapshot(7);
    market.quotes.set('XOM', stockQuote('XOM', 52, 51, at));

    const second = await sut.snapshot(7);

    expect(second.positions).not.toBe(first.positions);
    expect(
      second.positions.map((position) => [position.symbol, position.currentPrice, position.dayChange]),
    ).toEqual([
      ['AAPL', 100, 20],
      ['XOM', 52, 4],
    ]);
  });

  it('values the positions anew when a quote is only newer', async () => {
    const first = await sut.snapshot(7);
    market.quotes.set('XOM', stockQuote('XOM', 50, 51, new Date(at.getTime() + 60_000)));

    const second = await sut.snapshot(7);

    expect(second.positions.find((position) => position.symbol === 'XOM')!.lastUpdated).toEqual(
      new Date(at.getTime() + 60_000),
    );
    expect(first.positions.find((position) => position.symbol === 'XOM')!.lastUpdated).toEqual(at);
  });

  it('asks whether the account is the user’s once per ledger version', async () => {
    const asked: number[] = [];
    const counted: HoldingsAccounts = {
      find: async (userId, id) => (asked.push(id), accounts.find(userId, id)),
    };
    let version = 1;
    const repository: HoldingsLedger = {
      ledger: async () => ({ version, entries: [entry(1, 'AAPL', 'buy', 10, 90)] }),
    };
    const averageCost: HoldingsCostBasis = { costBasis: async () => AVERAGE_COST };
    const holdings = new HoldingsService(repository, market, new FakeClock(at), averageCost, counted);

    await holdings.snapshot(7, 3);
    await holdings.snapshot(7, 3);
    expect(asked).toEqual([3]);
    version = 2;
    await holdings.snapshot(7, 3);
    await expect(holdings.snapshot(7, 4)).rejects.toThrow('Account not found');
    await expect(holdings.snapshot(7, 4)).rejects.toThrow('Account not found');

    expect(asked).toEqual([3, 3, 4, 4]);
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

describe('HoldingsService valuation closes', () => {
  const day = (date: string) => new Date(`${date}T15:00:00Z`);
  const buy: LedgerTransaction = {
    ...entry(1, 'AAPL', 'buy', 10, 645.57),
    executedAt: day('2014-06-05'),
    tradeDate: '2014-06-05',
  };
  const split: LedgerTransaction = {
    ...entry(2, 'AAPL', 'buy', 0, 0),
    side: 'split',
    splitTo: 7,
    splitFrom: 1,
    executedAt: day('2014-06-09'),
    tradeDate: '2014-06-09',
  };
  const xom = entry(3, 'XOM', 'buy', 4, 60);
  const SPLIT_AAPL: ReadonlySet<string> = new Set(['AAPL']);
  let market: FakeMarket;
  let sut: HoldingsService;

  beforeEach(() => {
    market = new FakeMarket();
    market.quotes.set('AAPL', stockQuote('AAPL', 94.25, 93.7, at));
    market.quotes.set('XOM', stockQuote('XOM', 50, 51, at));
    market.closes.set('XOM', [{ date: '2014-06-06', close: 100 }]);
    const unused: HoldingsLedger = { ledger: async () => ({ version: 1, entries: [] }) };
    sut = new HoldingsService(
      unused,
      market,
      new FakeClock(at),
      { costBasis: async () => AVERAGE_COST },
      accounts,
    );
  });

  it('puts split-adjusted closes back as traded before a split the ledger records, asking only about that symbol', async () => {
    market.closes.set('AAPL', [
      { date: '2014-06-06', close: 92.2242 },
      { date: '2014-06-09', close: 93.7 },
    ]);
    market.splits.set('AAPL', { adjustedCloses: true, splits: [{ date: '2014-06-09', to: 7, from: 1 }] });
    const closes = await sut.valuationCloses([buy, split, xom], ['AAPL', 'XOM'], SPLIT_AAPL, '2014-06-05');
    expect(closes.get('AAPL')!.map(({ close }) => close)).toEqual([92.2242 * 7, 93.7]);
    expect(closes.get('XOM')).toBe(market.closes.get('XOM'));
    expect(market.splitCalls).toEqual(['AAPL']);
  });

  it('keeps closes put back as traded while the provider’s series is the same, and makes them anew from a refetched one', async () => {
    const adjusted = Object.freeze([
      { date: '2014-06-06', close: 92.2242 },
      { date: '2014-06-09', close: 93.7 },
    ]);
    market.closes.set('AAPL', adjusted);
    market.splits.set('AAPL', { adjustedCloses: true, splits: [{ date: '2014-06-09', to: 7, from: 1 }] });
    const first = (await sut.valuationCloses([buy, split], ['AAPL'], SPLIT_AAPL, '2014-06-05')).get('AAPL');
    const again = (await sut.valuationCloses([buy, split], ['AAPL'], SPLIT_AAPL, '2014-06-05')).get('AAPL');
    expect(again).toBe(first);

    const refetched = Object.freeze([
      { date: '2014-06-06', close: 92.5 },
      { date: '2014-06-09', close: 93.7 },
    ]);
    market.closes.set('AAPL', refetched);
    const fresh = (await sut.valuationCloses([buy, split], ['AAPL'], SPLIT_AAPL, '2014-06-05')).get('AAPL');
    expect(fresh!.map(({ close }) => close)).toEqual([92.5 * 7, 93.7]);
  });

  it('puts closes a reader may still change back as traded on every read', async () => {
    const adjusted = [
      { date: '2014-06-06', close: 92.2242 },
      { date: '2014-06-09', close: 93.7 },
    ];
    market.closes.set('AAPL', adjusted);
    market.splits.set('AAPL', { adjustedCloses: true, splits: [{ date: '2014-06-09', to: 7, from: 1 }] });
    await sut.valuationCloses([buy, split], ['AAPL'], SPLIT_AAPL, '2014-06-05');
    adjusted[0] = { date: '2014-06-06', close: 92.5 };
    const closes = await sut.valuationCloses([buy, split], ['AAPL'], SPLIT_AAPL, '2014-06-05');
    expect(closes.get('AAPL')!.map(({ close }) => close)).toEqual([92.5 * 7, 93.7]);
  });

  it('takes a provider’s closes as traded as they come: they drop 7× at the split as the recorded quantity grows 7×', async () => {
    const asTraded = [
      { date: '2014-06-06', close: 645.57 },
      { date: '2014-06-09', close: 93.7 },
    ];
    market.closes.set('AAPL', asTraded);
    market.splits.set('AAPL', { adjustedCloses: false, splits: [] });
    const closes = await sut.valuationCloses([buy, split], ['AAPL'], SPLIT_AAPL, '2014-06-05');
    expect(closes.get('AAPL')).toBe(asTraded);
  });
});

describe('HoldingsService by cost-basis method', () => {
  // 10 AAPL at 80 (lot 1), 10 at 90 (lot 2), 5 sold at 100; the quote is 100
  const ledger = [
    entry(1, 'AAPL', 'buy', 10, 80),
    entry(2, 'AAPL', 'buy', 10, 90),
    entry(3, 'AAPL', 'sell', 5, 100),
  ];
  const repository: HoldingsLedger = { ledger: async () => ({ version: 1, entries: ledger }) };

  async function positionUnder(costBasis: CostBasis) {
    const market = new FakeMarket();
    market.quotes.set('AAPL', stockQuote('AAPL', 100, 100, at));
    const sut = new HoldingsService(
      repository,
      market,
      new FakeClock(at),
      { costBasis: async () => costBasis },
      accounts,
    );
    const snapshot = await sut.snapshot(7);
    const [position] = snapshot.positions;
    return [position.quantity, position.costBasis, position.unrealizedPnl, snapshot.replay.totalRealizedPnl];
  }

  it('values the positions at the cost basis of the user’s method', async () => {
    // 15 left at the average 85: 1,275; realized 5 × (100 − 85)
    expect(await positionUnder(AVERAGE_COST)).toEqual([15, 1275, 225, 75]);
    // 5 of lot 1 sold: 5 × 80 + 10 × 90 left; realized 5 × 20
    expect(await positionUnder({ method: 'fifo', selections: new Map() })).toEqual([15, 1300, 200, 100]);
    // 5 of lot 2 named: 10 × 80 + 5 × 90 left; realized 5 × 10
    const named = new Map([[3, [{ sellId: 3, lotId: 2, quantity: 5 }]]]);
    expect(await positionUnder({ method: 'specific', selections: named })).toEqual([15, 1250, 250, 50]);
  });
});
