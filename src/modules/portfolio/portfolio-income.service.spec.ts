import { AVERAGE_COST } from './analytics/cost-basis';
import { LedgerReplay } from './analytics/ledger-replay';
import { ValuedPosition } from './analytics/position-valuation';
import { HoldingsService, HoldingsSnapshot } from './holdings.service';
import { LedgerTransaction } from './ledger-transaction';
import { PortfolioIncomeService } from './portfolio-income.service';

const asOf = new Date('2026-03-06T22:00:00Z');

function entry(id: number, side: 'buy' | 'dividend', amount: number): LedgerTransaction {
  const executedAt = new Date(`2026-01-0${id}T15:00:00Z`);
  return {
    id,
    userId: 7,
    accountId: 3,
    symbol: 'KO',
    side,
    quantity: side === 'buy' ? 10 : 0,
    price: side === 'buy' ? 60 : 0,
    fees: 0,
    amount: side === 'buy' ? null : amount,
    withholdingTax: side === 'buy' ? null : 0,
    executedAt,
    tradeDate: `2026-01-0${id}`,
    note: null,
    realizedPnl: null,
    createdAt: executedAt,
  };
}

function position(currentPrice: number): ValuedPosition {
  return {
    symbol: 'KO',
    quantity: 10,
    currentPrice,
    costBasis: 600,
    marketValue: 10 * currentPrice,
    unrealizedPnl: 10 * currentPrice - 600,
    unrealizedPnlPercent: 0,
    dayChange: 0,
    dayChangePercent: 0,
    weight: 100,
    sector: 'consumer',
    lastUpdated: asOf,
  };
}

describe('PortfolioIncomeService', () => {
  let snapshot: HoldingsSnapshot;
  let sut: PortfolioIncomeService;

  beforeEach(() => {
    snapshot = {
      userId: 7,
      ledgerVersion: 1,
      ledger: [entry(1, 'buy', 0), entry(2, 'dividend', 6)],
      costBasis: AVERAGE_COST,
      replay: {} as LedgerReplay,
      positions: [position(60)],
      asOf,
    };
    const holdings = { snapshot: async () => snapshot } as unknown as HoldingsService;
    sut = new PortfolioIncomeService(holdings);
  });

  it('sums the ledger once per version and day, and yields on the live value every time', async () => {
    const first = await sut.income(7, '1Y');
    snapshot = { ...snapshot, positions: [position(120)] };
    const hitsBefore = sut['incomes'].counters.hits;
    const again = await sut.income(7, '1Y');
    expect(sut['incomes'].counters.hits).toBe(hitsBefore + 1);
    expect(again.totals).toEqual(first.totals);
    expect(first.trailing12Months).toEqual({ dividendsGross: 6, yieldOnCost: 1, yieldOnValue: 1 });
    expect(again.trailing12Months).toEqual({ dividendsGross: 6, yieldOnCost: 1, yieldOnValue: 0.5 });
  });

  it('sums the ledger again after a change', async () => {
    await sut.income(7, '1Y');
    snapshot = { ...snapshot, ledgerVersion: 2, ledger: [...snapshot.ledger, entry(3, 'dividend', 4)] };
    expect((await sut.income(7, '1Y')).totals.dividendsGross).toBe(10);
  });
});
