import { Injectable } from '@nestjs/common';
import { CountedLru } from '../../common/metrics/cache-counters';
import { IncomeReport, LedgerIncome, ledgerIncome, withTrailingYields } from './analytics/income';
import { exchangeDay, HistoryPeriod } from './analytics/time-weighted-returns';
import { HoldingsService, ledgerOwner, VersionOf } from './holdings.service';
import { CACHED_LEDGER_ROWS } from './portfolio-transactions.repository';

export interface PortfolioIncome extends IncomeReport {
  period: HistoryPeriod;
  asOf: Date;
}

/** Dividends and interest of the ledger over a period, and the trailing yields of today's holdings. */
@Injectable()
export class PortfolioIncomeService {
  /**
   * The ledger's income by `<user>:<account>:<period>`, current while the ledger version and the
   * exchange day are the entry's; sized in ledger rows. Only the yields read live quotes.
   */
  private readonly incomes = new CountedLru<string, VersionOf<LedgerIncome> & { day: string }>(
    'portfolio-income',
    {
      maxSize: CACHED_LEDGER_ROWS,
      sizeCalculation: (entry) => Math.max(1, entry.rows),
    },
  );

  constructor(private readonly holdings: HoldingsService) {}

  async income(userId: number, period: HistoryPeriod, accountId?: number): Promise<PortfolioIncome> {
    const snapshot = await this.holdings.snapshot(userId, accountId);
    const day = exchangeDay(snapshot.asOf);
    const slot = `${ledgerOwner(userId, accountId)}:${period}`;
    const version = snapshot.ledgerVersion;
    let cached = this.incomes.getCurrent(slot, (entry) => entry.version === version && entry.day === day);
    if (!cached) {
      const held = new Set(snapshot.positions.map((position) => position.symbol));
      const value = ledgerIncome(snapshot.ledger, held, period, day);
      cached = { version, day, rows: snapshot.ledger.length, value };
      this.incomes.set(slot, cached);
    }
    return { period, ...withTrailingYields(cached.value, snapshot.positions), asOf: snapshot.asOf };
  }
}
