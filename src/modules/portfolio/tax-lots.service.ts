import { Injectable } from '@nestjs/common';
import { LedgerEntry } from './analytics/ledger-replay';
import { exchangeDay } from './analytics/time-weighted-returns';
import {
  ClosedLotPortion,
  FifoLots,
  HoldingTerm,
  holdingDays,
  holdingTerm,
  matchLotsFifo,
  TaxLot,
} from './analytics/tax-lots';
import { percentOf } from './analytics/position-valuation';
import { HoldingsService } from './holdings.service';

export interface ValuedTaxLot extends TaxLot {
  currentPrice: number;
  costBasis: number;
  marketValue: number;
  unrealizedPnl: number;
  unrealizedPnlPercent: number;
  holdingDays: number;
  term: HoldingTerm;
}

export interface RealizedGains {
  year: number;
  portions: ClosedLotPortion[];
  totals: { proceeds: number; cost: number; gain: number; shortTermGain: number; longTermGain: number };
  asOf: Date;
}

/** Open FIFO lots of the current holdings, valued at the same live quotes as the positions. */
@Injectable()
export class TaxLotsService {
  /** The lots of each cached ledger version, matched once. */
  private readonly lotsByLedger = new WeakMap<readonly LedgerEntry[], FifoLots>();

  constructor(private readonly holdings: HoldingsService) {}

  async openLots(userId: number): Promise<{ lots: ValuedTaxLot[]; asOf: Date }> {
    const snapshot = await this.holdings.snapshot(userId);
    const lots = this.lotsOf(snapshot.ledger).open;
    const priceBySymbol = new Map(
      snapshot.positions.map((position) => [position.symbol, position.currentPrice]),
    );
    const today = exchangeDay(snapshot.asOf);
    return {
      lots: lots.map((lot) => {
        const currentPrice = priceBySymbol.get(lot.symbol)!;
        const costBasis = lot.quantity * lot.costPerShare;
        const marketValue = lot.quantity * currentPrice;
        return {
          ...lot,
          currentPrice,
          costBasis,
          marketValue,
          unrealizedPnl: marketValue - costBasis,
          unrealizedPnlPercent: percentOf(marketValue - costBasis, costBasis),
          holdingDays: holdingDays(lot.acquiredOn, today),
          term: holdingTerm(lot.acquiredOn, today),
        };
      }),
      asOf: snapshot.asOf,
    };
  }

  /** Lot portions closed by sells on New York dates of `year` (default New York's current year). */
  async realized(userId: number, year?: number): Promise<RealizedGains> {
    const snapshot = await this.holdings.snapshot(userId);
    const reportYear = year ?? Number(exchangeDay(snapshot.asOf).slice(0, 4));
    const portions = this.lotsOf(snapshot.ledger).closed.filter(
      (portion) => Number(portion.disposedOn.slice(0, 4)) === reportYear,
    );
    const totals = { proceeds: 0, cost: 0, gain: 0, shortTermGain: 0, longTermGain: 0 };
    for (const portion of portions) {
      totals.proceeds += portion.proceeds;
      totals.cost += portion.cost;
      totals.gain += portion.gain;
      if (portion.term === 'long') totals.longTermGain += portion.gain;
      else totals.shortTermGain += portion.gain;
    }
    return { year: reportYear, portions, totals, asOf: snapshot.asOf };
  }

  private lotsOf(ledger: readonly LedgerEntry[]): FifoLots {
    let lots = this.lotsByLedger.get(ledger);
    if (!lots) {
      lots = matchLotsFifo(ledger);
      this.lotsByLedger.set(ledger, lots);
    }
    return lots;
  }
}
