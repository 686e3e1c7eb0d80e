import { Injectable } from '@nestjs/common';
import { PortfolioTotals, summarisePositions } from './analytics/portfolio-summary';
import { PeriodReturns, timeWeightedReturns, utcDay } from './analytics/time-weighted-returns';
import { HoldingsService, HoldingsSnapshot } from './holdings.service';

export interface PortfolioSummary extends PortfolioTotals {
  performance: PeriodReturns;
  asOf: Date;
}

/** Totals of the current positions and the time-weighted performance of the ledger. */
@Injectable()
export class PortfolioSummaryService {
  constructor(private readonly holdings: HoldingsService) {}

  async summary(userId: number): Promise<PortfolioSummary> {
    return this.summarise(await this.holdings.snapshot(userId));
  }

  async summarise(snapshot: HoldingsSnapshot): Promise<PortfolioSummary> {
    const totals = summarisePositions(snapshot.positions, snapshot.replay.totalRealizedPnl);
    const performance = await this.performance(snapshot);
    return { ...totals, performance, asOf: snapshot.asOf };
  }

  /** Returns as fractions; closes from the first trade on, of every symbol the ledger ever held. */
  private async performance(snapshot: HoldingsSnapshot): Promise<PeriodReturns> {
    const asOf = utcDay(snapshot.asOf);
    if (snapshot.ledger.length === 0) return timeWeightedReturns([], new Map(), asOf);
    const firstDay = utcDay(snapshot.ledger[0].executedAt);
    const symbols = [...new Set(snapshot.ledger.map((entry) => entry.symbol))];
    const closes = await this.holdings.dailyCloses(symbols, firstDay);
    return timeWeightedReturns(snapshot.ledger, closes, asOf);
  }
}
