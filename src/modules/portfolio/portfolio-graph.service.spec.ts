import { DrainState } from '../../common/lifecycle/drain-state';
import { GraphService, HeldQuantity, PortfolioExposure } from '../graph';
import { PreferencesService } from '../preferences';
import { LedgerTransaction } from './ledger-transaction';
import { PortfolioAccountsRepository } from './portfolio-accounts.repository';
import { PortfolioGraphService } from './portfolio-graph.service';
import { LedgerVersion, PortfolioTransactionsRepository } from './portfolio-transactions.repository';

function buy(id: number, accountId: number, symbol: string, quantity: number): LedgerTransaction {
  const executedAt = new Date(`2026-01-0${id}T15:00:00Z`);
  return {
    id,
    userId: 7,
    accountId,
    symbol,
    side: 'buy',
    quantity,
    price: 10,
    fees: 0,
    executedAt,
    tradeDate: `2026-01-0${id}`,
    note: null,
    realizedPnl: null,
    createdAt: executedAt,
  };
}

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
