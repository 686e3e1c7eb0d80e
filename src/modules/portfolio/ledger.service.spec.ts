import { RuleViolationError } from '../../common/errors/domain-errors';
import { LotSelection } from './analytics/tax-lots';
import { InsufficientCashError, LedgerChange } from './ledger.service';
import { LedgerTransaction, NewLedgerTransaction, PlacedLedgerTransaction } from './ledger-transaction';
import { DEFAULT_PORTFOLIO_SETTINGS } from './portfolio-settings.service';
import { LockedLedger } from './portfolio-transactions.repository';

/** A user's ledger in memory, written the way the database-backed one is. */
class MemoryLedger {
  rows: LedgerTransaction[] = [];
  private nextId = 1;

  entries(): Promise<readonly LedgerTransaction[]> {
    return Promise.resolve(
      [...this.rows].sort((a, b) => a.executedAt.getTime() - b.executedAt.getTime() || a.id - b.id),
    );
  }

  insert(records: PlacedLedgerTransaction[]): Promise<number[]> {
    const stored = records.map((record) => ({ ...record, id: this.nextId++, realizedPnl: null }));
    this.rows.push(...stored);
    return Promise.resolve(stored.map((row) => row.id));
  }

  delete(id: number): Promise<void> {
    this.rows = this.rows.filter((row) => row.id !== id);
    return Promise.resolve();
  }

  /** The user's one account. */
  defaultAccountId(): Promise<number> {
    return Promise.resolve(1);
  }

  refreshRealizedPnl(): Promise<void> {
    return Promise.resolve();
  }

  /** No replay is kept: every check replays the whole ledger. */
  replayed(): undefined {
    return undefined;
  }

  /** These tests name no lots. */
  lotSelections(): Promise<ReadonlyMap<number, readonly LotSelection[]>> {
    return Promise.resolve(new Map());
  }

  insertLotSelections(): Promise<void> {
    return Promise.resolve();
  }

  findByIds(ids: number[]): Promise<LedgerTransaction[]> {
    return Promise.resolve(ids.map((id) => this.rows.find((row) => row.id === id)!));
  }
}

const base = {
  userId: 1,
  note: null,
  createdAt: new Date('2025-06-30T00:00:00Z'),
  quantity: 0,
  price: 0,
  fees: 0,
};
const deposit = (amount: number, day: string): NewLedgerTransaction => ({
  ...base,
  symbol: null,
  side: 'deposit',
  amount,
  executedAt: new Date(`${day}T15:00:00Z`),
  tradeDate: day,
});
const buy = (quantity: number, price: number, day: string): NewLedgerTransaction => ({
  ...base,
  symbol: 'AAPL',
  side: 'buy',
  quantity,
  price,
  executedAt: new Date(`${day}T15:00:00Z`),
  tradeDate: day,
});
const withdrawal = (amount: number, day: string): NewLedgerTransaction => ({
  ...deposit(amount, day),
  side: 'withdrawal',
});

describe('LedgerChange under strict cash', () => {
  let memory: MemoryLedger;
  let sut: LedgerChange;
  let withoutStrictCash: LedgerChange;
  beforeEach(() => {
    memory = new MemoryLedger();
    sut = new LedgerChange(memory as unknown as LockedLedger, 1000, {
      ...DEFAULT_PORTFOLIO_SETTINGS,
      strictCash: true,
    });
    withoutStrictCash = new LedgerChange(memory as unknown as LockedLedger, 1000);
  });

  it('records a buy the cash covers, to the cent', async () => {
    await sut.append([deposit(1000, '2025-01-02')]);
    await sut.append([buy(10, 100, '2025-01-06')]);
    expect(memory.rows.map((row) => row.side)).toEqual(['deposit', 'buy']);
  });

  it('refuses a buy the cash does not cover with 400 "Insufficient cash for this buy", storing nothing', async () => {
    await sut.append([deposit(999.99, '2025-01-02')]);
    const refused = sut.append([buy(10, 100, '2025-01-06')]);
    await expect(refused).rejects.toThrow(InsufficientCashError);
    await expect(refused).rejects.toMatchObject({
      detail: 'Insufficient cash for this buy',
      at: { appendedIndex: 0 },
    });
    expect(memory.rows).toHaveLength(1);
  });

  it('refuses a back-dated withdrawal that overdraws cash at its own time, though the balance ends above zero', async () => {
    await sut.append([deposit(100, '2025-01-10')]);
    await expect(sut.append([withdrawal(50, '2025-01-05')])).rejects.toMatchObject({
      detail: 'Insufficient cash for this withdrawal',
    });
  });

  it('allows the same buy without strict cash: the balance may go negative', async () => {
    await withoutStrictCash.append([buy(10, 100, '2025-01-06')]);
    expect(memory.rows).toHaveLength(1);
  });

  it('refuses deleting a deposit that later buys drew on, only under strict cash', async () => {
    const [stored] = await sut.append([deposit(1000, '2025-01-02')]);
    await sut.append([buy(10, 100, '2025-01-06')]);
    const refused = sut.remove(stored.id);
    await expect(refused).rejects.toThrow(RuleViolationError);
    await expect(refused).rejects.toMatchObject({
      detail: 'Cannot delete this transaction: the cash balance would fall below zero',
    });
    await withoutStrictCash.remove(stored.id);
    expect(memory.rows.map((row) => row.side)).toEqual(['buy']);
  });

  it('judges a change by the shortfall it makes: cash that already went negative still takes what it covers', async () => {
    // recorded before strict cash was on: 1,000 of buys with no cash, then a deposit of 300
    await withoutStrictCash.append([buy(10, 100, '2025-01-06'), deposit(300, '2025-02-03')]);
    await sut.append([deposit(1000, '2025-03-03')]);
    await sut.append([buy(3, 100, '2025-03-04')]);
    // the balance stands at 0: one more share is not covered
    await expect(sut.append([buy(1, 100, '2025-03-05')])).rejects.toMatchObject({
      detail: 'Insufficient cash for this buy',
    });
    expect(memory.rows.map((row) => row.side)).toEqual(['buy', 'deposit', 'deposit', 'buy']);
  });
});

describe('LedgerChange.appendIds', () => {
  it('answers the stored ids in the records’ order without reading the rows back', async () => {
    const memory = new MemoryLedger();
    const findByIds = jest.spyOn(memory, 'findByIds');
    const sut = new LedgerChange(memory as unknown as LockedLedger, 1000);
    const ids = await sut.appendIds([deposit(1000, '2025-01-02'), buy(1, 100, '2025-01-06')]);
    expect(ids).toEqual(memory.rows.map((row) => row.id));
    expect(findByIds).not.toHaveBeenCalled();
  });
});
