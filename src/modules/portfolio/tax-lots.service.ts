import { Injectable } from '@nestjs/common';
import { CountedLru } from '../../common/metrics/cache-counters';
import { CostBasis, lotsByMethod } from './analytics/cost-basis';
import { exchangeDay } from './analytics/time-weighted-returns';
import {
  ClosedLotPortion,
  FifoLots,
  HoldingTerm,
  holdingDays,
  holdingTerm,
  TaxLot,
} from './analytics/tax-lots';
import { percentOf } from './analytics/position-valuation';
import { HoldingsService, HoldingsSnapshot, ledgerOwner, VersionOf } from './holdings.service';
import { CACHED_LEDGER_ROWS } from './portfolio-transactions.repository';

export interface ValuedTaxLot extends TaxLot {
  currentPrice: number;
  costBasis: number;
  marketValue: number;
  unrealizedPnl: number;
  unrealizedPnlPercent: number;
  holdingDays: number;
  term: HoldingTerm;
}

/** How sells were matched to lots: FIFO unless the user's method is `specific`. */
export type LotMatching = 'fifo' | 'specific';

export interface OpenLots {
  method: LotMatching;
  /** Frozen: every lot of the snapshot is the cached list itself, so that its response rows are serialized once. */
  lots: readonly ValuedTaxLot[];
  asOf: Date;
}

export interface RealizedGains {
  method: LotMatching;
  year: number;
  /** Frozen: the cached list itself, so that its response rows are serialized once. */
  portions: readonly ClosedLotPortion[];
  totals: { proceeds: number; cost: number; gain: number; shortTermGain: number; longTermGain: number };
  asOf: Date;
}

/**
 * Open lots of the current holdings, valued at the same live quotes as the positions, and the lot
 * portions sells closed. Matched by the user's method; under `average`, which has no lots, FIFO.
 */
@Injectable()
export class TaxLotsService {
  /**
   * The lots by `<user>:<account>:<matching>`, current while the ledger version is the entry's;
   * sized in ledger rows.
   */
  private readonly lotsByLedger = new CountedLru<string, VersionOf<FifoLots>>('portfolio-lots', {
    maxSize: CACHED_LEDGER_ROWS,
    sizeCalculation: (entry) => Math.max(1, entry.rows),
  });

  /**
   * The open lots valued, by `<user>:<account>:<matching>`, current while the ledger version, the
   * exchange day and the held symbols' prices are the entry's: a lot's figures depend on nothing
   * else, and a ledger of thousands of lots was valued anew on every read. Sized in lots.
   */
  private readonly valuedLots = new CountedLru<string, ValuedLots>('portfolio-valued-lots', {
    maxSize: CACHED_LEDGER_ROWS,
    sizeCalculation: (entry) => Math.max(1, entry.lots.length),
  });

  /**
   * The portions closed in a year and their totals, by `<user>:<account>:<matching>:<year>`,
   * current while the ledger version is the entry's: every closed portion was read on every
   * request. Sized in portions.
   */
  private readonly realizedByYear = new CountedLru<string, YearRealized>('portfolio-realized', {
    maxSize: CACHED_LEDGER_ROWS,
    sizeCalculation: (entry) => Math.max(1, entry.portions.length),
  });

  constructor(private readonly holdings: HoldingsService) {}

  async openLots(userId: number, accountId?: number): Promise<OpenLots> {
    return this.openLotsOf(await this.holdings.snapshot(userId, accountId));
  }

  /**
   * The open lots of a snapshot already read (of one symbol when given), valued at its quotes: for
   * a caller that also needs the positions, without reading the ledger a second time.
   */
  openLotsOf(snapshot: HoldingsSnapshot, symbol?: string): OpenLots {
    const all = this.valuedOpenLots(snapshot);
    return {
      method: lotMatching(snapshot.costBasis),
      lots: symbol === undefined ? all : all.filter((lot) => lot.symbol === symbol),
      asOf: snapshot.asOf,
    };
  }

  private valuedOpenLots(snapshot: HoldingsSnapshot): readonly ValuedTaxLot[] {
    const { ledgerVersion: version, costBasis, positions } = snapshot;
    const slot = `${ledgerOwner(snapshot.userId, snapshot.accountId)}:${lotMatching(costBasis)}`;
    const today = exchangeDay(snapshot.asOf);
    const prices = positions.map((position) => `${position.symbol}=${position.currentPrice}`).join(',');
    const cached = this.valuedLots.getCurrent(
      slot,
      (entry) => entry.version === version && entry.today === today && entry.prices === prices,
    );
    if (cached) return cached.lots;
    const priceBySymbol = new Map(positions.map((position) => [position.symbol, position.currentPrice]));
    const lots = Object.freeze(
      this.lotsOf(snapshot).open.map((lot): ValuedTaxLot => {
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
    );
    this.valuedLots.set(slot, { version, today, prices, lots });
    return lots;
  }

  /** Lot portions closed by sells on New York dates of `year` (default New York's current year). */
  async realized(userId: number, year?: number, accountId?: number): Promise<RealizedGains> {
    const snapshot = await this.holdings.snapshot(userId, accountId);
    const reportYear = year ?? Number(exchangeDay(snapshot.asOf).slice(0, 4));
    const { portions, totals } = this.realizedIn(snapshot, reportYear);
    return {
      method: lotMatching(snapshot.costBasis),
      year: reportYear,
      portions,
      totals: { ...totals },
      asOf: snapshot.asOf,
    };
  }

  private realizedIn(snapshot: HoldingsSnapshot, year: number): YearRealized {
    const version = snapshot.ledgerVersion;
    const slot = `${ledgerOwner(snapshot.userId, snapshot.accountId)}:${lotMatching(snapshot.costBasis)}:${year}`;
    const cached = this.realizedByYear.getCurrent(slot, (entry) => entry.version === version);
    if (cached) return cached;
    const portions = Object.freeze(
      this.lotsOf(snapshot).closed.filter((portion) => Number(portion.disposedOn.slice(0, 4)) === year),
    );
    const totals = { proceeds: 0, cost: 0, gain: 0, shortTermGain: 0, longTermGain: 0 };
    for (const portion of portions) {
      totals.proceeds += portion.proceeds;
      totals.cost += portion.cost;
      totals.gain += portion.gain;
      if (portion.term === 'long') totals.longTermGain += portion.gain;
      else totals.shortTermGain += portion.gain;
    }
    const computed = { version, portions, totals: Object.freeze(totals) };
    this.realizedByYear.set(slot, computed);
    return computed;
  }

  private lotsOf(snapshot: HoldingsSnapshot): FifoLots {
    const { ledger, ledgerVersion: version, costBasis } = snapshot;
    const slot = `${ledgerOwner(snapshot.userId, snapshot.accountId)}:${lotMatching(costBasis)}`;
    let cached = this.lotsByLedger.getCurrent(slot, (entry) => entry.version === version);
    if (!cached) {
      cached = { version, rows: ledger.length, value: lotsByMethod(ledger, costBasis) };
      this.lotsByLedger.set(slot, cached);
    }
    return cached.value;
  }
}

/** The lot portions closed in one year of one ledger version, and their totals. */
interface YearRealized {
  version: number;
  portions: readonly ClosedLotPortion[];
  totals: Readonly<RealizedGains['totals']>;
}

/** Open lots valued on one exchange day at one price per held symbol. */
interface ValuedLots {
  version: number;
  today: string;
  /** `<symbol>=<price>` of every position, in the positions' order. */
  prices: string;
  lots: readonly ValuedTaxLot[];
}

function lotMatching(costBasis: CostBasis): LotMatching {
  return costBasis.method === 'specific' ? 'specific' : 'fifo';
}
