import { ledgerRow } from '../../../test/factories/ledger.factory';
import { DrainState } from '../../common/lifecycle/drain-state';
import { GraphService, HeldQuantity, PortfolioExposure } from '../graph';
import { PreferencesService } from '../preferences';
import { LedgerEntry, replayLedger } from './analytics/ledger-replay';
import { PortfolioAccountsRepository } from './portfolio-accounts.repository';
import { PortfolioGraphService } from './portfolio-graph.service';
import { LedgerVersion, PortfolioTransactionsRepository } from './portfolio-transactions.repository';

const buy = (id: number, accountId: number, symbol: string, quantity: number) =>
  ledgerRow(id, { accountId, symbol, quantity, price: 10 });

describe('PortfolioGraphService', () => {
  let stored: LedgerVersion;
  let asked: { version: number; held: readonly HeldQuantity[] }[];
  let sut: PortfolioGraphService;

  beforeEach(() => {
    stored = { version: 1, entries: [buy(1, 3, 'AAPL', 5), buy(2, 4, 'XOM', 2), buy(3, 3, 'AAPL', 1)] };
    asked = [];
    const ledgers = { ledger: async () => stored } as unknown as PortfolioTransactionsRepository;
    const graph = {
      accountExposure: async (
        _user: number,
        _account: number,
        version: number,
        held: readonly HeldQuantity[],
      ) => {
        asked.push({ version, held });
        return {} as PortfolioExposure;
      },
    } as unknown as GraphService;
    const accounts = { find: async () => ({ id: 3 }) } as unknown as PortfolioAccountsRepository;
    sut = new PortfolioGraphService(ledgers, graph, {} as PreferencesService, {} as DrainState, accounts);
  });

  it("replays one account's entries once per ledger version", async () => {
    await sut.exposure(7, 3);
    await sut.exposure(7, 3);
    expect(sut['accountHeld'].counters.hits).toBe(1);
    expect(asked[1].held).toBe(asked[0].held);
    expect(asked[0].held).toEqual([{ symbol: 'AAPL', quantity: 6 }]);
    stored = { version: 2, entries: [...stored.entries, buy(4, 3, 'MSFT', 1)] };
    await sut.exposure(7, 3);
    expect(asked[2]).toEqual({
      version: 2,
      held: [
        { symbol: 'AAPL', quantity: 6 },
        { symbol: 'MSFT', quantity: 1 },
      ],
    });
  });
});

function heldEntry(id: number, symbol: string, quantity: number, accountId?: number): LedgerEntry {
  const executedAt = new Date('2026-03-02T15:00:00Z');
  return {
    id,
    accountId,
    symbol,
    side: 'buy',
    quantity,
    price: 100,
    fees: 0,
    executedAt,
    tradeDate: '2026-03-02',
  };
}

describe('PortfolioGraphService cluster concentration (the risk figures)', () => {
  const concentration = {
    largestClusterWeight: 0.6,
    largestClusterMembers: ['AAPL', 'MSFT'],
    effectiveBets: 1.8,
  };
  const ledger = [heldEntry(1, 'AAPL', 10, 1), heldEntry(2, 'MSFT', 5, 1), heldEntry(3, 'XOM', 4, 2)];

  function serviceWithFakes(recordedVersion: number) {
    const ledgers = { ledger: jest.fn() };
    const accounts = { find: jest.fn() };
    const graph = {
      isBuilt: async () => true,
      userSources: async () => ({ ledgerVersion: recordedVersion, watchlist: [] }),
      recordHoldings: jest.fn(async () => undefined),
      recordWatchlist: jest.fn(async () => undefined),
      clusterConcentration: jest.fn(
        async (_user: number, _version: number, record: () => Promise<unknown>) => {
          await record();
          return concentration;
        },
      ),
      accountClusterConcentration: jest.fn(async () => concentration),
    };
    const preferences = { findForUser: async () => null };
    const sut = new PortfolioGraphService(
      ledgers as unknown as PortfolioTransactionsRepository,
      graph as unknown as GraphService,
      preferences as unknown as PreferencesService,
      new DrainState(),
      accounts as unknown as PortfolioAccountsRepository,
    );
    return { sut, ledgers, accounts, graph };
  }

  it('brings the graph to the snapshot’s ledger without reading the ledger again', async () => {
    const { sut, ledgers, graph } = serviceWithFakes(6);

    const answer = await sut.clusterConcentration({
      userId: 7,
      ledgerVersion: 9,
      ledger,
      replay: replayLedger(ledger),
    });

    expect(answer).toBe(concentration);
    expect(ledgers.ledger).not.toHaveBeenCalled();
    expect(graph.recordHoldings).toHaveBeenCalledWith(
      7,
      [
        { symbol: 'AAPL', quantity: 10 },
        { symbol: 'MSFT', quantity: 5 },
        { symbol: 'XOM', quantity: 4 },
      ],
      9,
    );
    expect(graph.clusterConcentration).toHaveBeenCalledWith(7, 9, expect.any(Function));
  });

  it('weighs one account’s snapshot by its own entries, already checked to be the user’s', async () => {
    const { sut, ledgers, accounts, graph } = serviceWithFakes(9);
    const accountLedger = ledger.filter((entry) => entry.accountId === 1);

    await sut.clusterConcentration({
      userId: 7,
      accountId: 1,
      ledgerVersion: 9,
      ledger: accountLedger,
      replay: replayLedger(accountLedger),
    });

    expect(ledgers.ledger).not.toHaveBeenCalled();
    expect(accounts.find).not.toHaveBeenCalled();
    expect(graph.accountClusterConcentration).toHaveBeenCalledWith(7, 1, 9, [
      { symbol: 'AAPL', quantity: 10 },
      { symbol: 'MSFT', quantity: 5 },
    ]);
  });
});
