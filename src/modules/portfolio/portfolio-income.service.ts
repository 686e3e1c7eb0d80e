import { Injectable } from '@nestjs/common';
import { IncomeReport, incomeReport } from './analytics/income';
import { exchangeDay, HistoryPeriod } from './analytics/time-weighted-returns';
import { HoldingsService } from './holdings.service';

export interface PortfolioIncome extends IncomeReport {
  period: HistoryPeriod;
  asOf: Date;
}

/** Dividends and interest of the ledger over a period, and the trailing yields of today's holdings. */
@Injectable()
export class PortfolioIncomeService {
  constructor(private readonly holdings: HoldingsService) {}

  async income(userId: number, period: HistoryPeriod, accountId?: number): Promise<PortfolioIncome> {
    const snapshot = await this.holdings.snapshot(userId, accountId);
    const report = incomeReport(snapshot.ledger, snapshot.positions, period, exchangeDay(snapshot.asOf));
    return { period, ...report, asOf: snapshot.asOf };
  }
}
