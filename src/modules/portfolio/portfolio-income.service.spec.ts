import { ledgerRow, soleValuedPosition } from '../../../test/factories/ledger.factory';
import { AVERAGE_COST } from './analytics/cost-basis';
import { LedgerReplay } from './analytics/ledger-replay';
import { HoldingsService, HoldingsSnapshot } from './holdings.service';
import { PortfolioIncomeService } from './portfolio-income.service';

const asOf = new Date('2026-03-06T22:00:00Z');

const entry = (id: number, side: 'buy' | 'dividend', amount: number) =>
  side === 'buy'
    ? ledgerRow(id, { symbol: 'KO', quantity: 10, price: 60, amount: null, withholdingTax: null })
    : ledgerRow(id, { symbol: 'KO', side, quantity: 0, price: 0, amount, withholdingTax: 0 });

const position = (currentPrice: number) =>
  soleValuedPosition({
    symbol: 'KO',
    quantity: 10,
    currentPrice,
    costBasis: 600,
    sector: 'consumer',
    lastUpdated: asOf,
  });

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
