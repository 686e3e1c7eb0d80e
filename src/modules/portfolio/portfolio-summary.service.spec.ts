import { ledgerRow } from '../../../test/factories/ledger.factory';
import { FakeClock } from '../../../test/fakes/clock';
import { FakeMarket, stockQuote } from '../../../test/fakes/fake-market';
import { AVERAGE_COST } from './analytics/cost-basis';
import { replayLedger } from './analytics/ledger-replay';
import { HoldingsAccounts, HoldingsService, HoldingsSnapshot } from './holdings.service';
import { LedgerTransaction } from './ledger-transaction';
import { PortfolioSummaryService } from './portfolio-summary.service';
import { PortfolioTransactionsRepository } from './portfolio-transactions.repository';

const at = new Date('2026-01-09T22:00:00Z');

function snapshotOf(ledgerVersion: number, ledger: readonly LedgerTransaction[]): HoldingsSnapshot {
  return {
    userId: 7,
    ledgerVersion,
    ledger,
    costBasis: AVERAGE_COST,
    replay: replayLedger(ledger),
    positions: [],
    asOf: at,
  };
}

/** `entry`, counting the reads of its kind (what a scan of the ledger looks at). */
function watched(entry: LedgerTransaction, sideReads: jest.Mock): LedgerTransaction {
  return new Proxy(Object.freeze(entry), {
    get: (target, key, receiver) => {
      if (key === 'side') sideReads();
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

describe('PortfolioSummaryService', () => {
  let market: FakeMarket;
  let sut: PortfolioSummaryService;

  beforeEach(() => {
    market = new FakeMarket();
    market.quotes.set('AAPL', stockQuote('AAPL', 110, 108, at));
    // Frozen, as the market hands them over: the same series is the same market data.
    market.closes.set(
      'AAPL',
      Object.freeze([
        { date: '2026-01-02', close: 100 },
        { date: '2026-01-05', close: 104 },
        { date: '2026-01-06', close: 106 },
        { date: '2026-01-07', close: 108 },
        { date: '2026-01-08', close: 110 },
      ]),
    );
    sut = summaryOver(market);
  });

  it('values trades appended since the last summary without looking through the entries before them', async () => {
    const sideReads = jest.fn();
    const earlier = Object.freeze(
      [ledgerRow(2), ledgerRow(5, { quantity: 2, price: 104 })].map((entry) => watched(entry, sideReads)),
    );
    const later = Object.freeze([...earlier, ledgerRow(9, { price: 110 })]);
    const [before, after] = [snapshotOf(1, earlier), snapshotOf(2, later)];
    await sut.summarise(before);
    sideReads.mockClear();

    const summary = await sut.summarise(after);

    expect(sideReads).not.toHaveBeenCalled();
    const valuedWhole = await summaryOver(market).summarise(snapshotOf(2, later));
    expect(summary).toEqual(valuedWhole);
  });

  it('asks about the splits of a symbol once the ledger records one, appended or not', async () => {
    const buy = ledgerRow(2);
    await sut.summarise(snapshotOf(1, Object.freeze([buy])));
    expect(market.splitCalls).toEqual([]);

    const split = ledgerRow(6, { side: 'split', quantity: 0, price: 0, splitTo: 2, splitFrom: 1 });
    await sut.summarise(snapshotOf(2, Object.freeze([buy, split])));
    expect(market.splitCalls).toEqual(['AAPL']);
  });
});

/** The service over `market`; summarise reads no ledger, account or setting of its own. */
function summaryOver(market: FakeMarket): PortfolioSummaryService {
  const noAccounts: HoldingsAccounts = { find: async () => null };
  const holdings = new HoldingsService(
    { ledger: async () => ({ version: 1, entries: [] }) },
    market,
    new FakeClock(at),
    { costBasis: async () => AVERAGE_COST },
    noAccounts,
  );
  return new PortfolioSummaryService(holdings, {} as PortfolioTransactionsRepository);
}
