import { Injectable } from '@nestjs/common';
import { PositionContribution, positionContributions } from './analytics/contribution';
import { DailyClose } from './analytics/daily-returns';
import { isHoldingEntry, LedgerEntry } from './analytics/ledger-replay';
import { PortfolioTotals, summarisePositions } from './analytics/portfolio-summary';
import { moneyWeightedPeriodReturns } from './analytics/money-weighted-returns';
import {
  DailyValuation,
  dailyValuations,
  exchangeDay,
  PeriodReturns,
  timeWeightedPeriodReturns,
  tradeDay,
} from './analytics/time-weighted-returns';
import { HoldingsService, HoldingsSnapshot } from './holdings.service';
import { seriesFingerprint } from './same-series';

/** Time-weighted and money-weighted returns of the same periods, as fractions. */
export interface Performance {
  timeWeighted: PeriodReturns;
  moneyWeighted: PeriodReturns;
}

export interface PortfolioSummary extends PortfolioTotals {
  /** Only when asked for (`include_cash`), so that the summary without it stays as it was. */
  cash?: CashTotals;
  performance: PeriodReturns;
  moneyWeightedPerformance: PeriodReturns;
  asOf: Date;
}

export interface CashTotals {
  /** See LedgerReplay.cashBalance. */
  balance: number;
  /** The positions' market value + the cash balance. */
  totalValueWithCash: number;
}

/**
 * The inputs of one valuation of the ledger, the valuations, and what is derived from them once
 * asked for: the returns, and the contributions after each start asked for.
 */
interface ComputedPerformance {
  asOf: string;
  closes: string;
  valuations: readonly DailyValuation[];
  performance?: Performance;
  contributionsAfter: Map<string, readonly PositionContribution[]>;
}

/** Totals of the current positions and the time-weighted performance of the ledger. */
@Injectable()
export class PortfolioSummaryService {
  /**
   * The last valuations and returns of each cached ledger version. They are a pure function of the
   * ledger, the closes and the day, so they are reused while all three are the same (the ledger
   * and close series are shared arrays: the same array means the same data).
   */
  private readonly performances = new WeakMap<readonly LedgerEntry[], ComputedPerformance>();
  private readonly tradedSymbols = new WeakMap<readonly LedgerEntry[], string[]>();

  constructor(private readonly holdings: HoldingsService) {}

  /** With `includeCash`, also the cash balance and the value including it. */
  async summary(userId: number, includeCash = false): Promise<PortfolioSummary> {
    return this.summarise(await this.holdings.snapshot(userId), includeCash);
  }

  async summarise(snapshot: HoldingsSnapshot, includeCash = false): Promise<PortfolioSummary> {
    const totals = summarisePositions(snapshot.positions, snapshot.replay.totalRealizedPnl);
    const performance = await this.performance(snapshot);
    const balance = snapshot.replay.cashBalance;
    return {
      ...totals,
      ...(includeCash && { cash: { balance, totalValueWithCash: totals.totalValue + balance } }),
      performance: performance.timeWeighted,
      moneyWeightedPerformance: performance.moneyWeighted,
      asOf: snapshot.asOf,
    };
  }

  /**
   * The ledger's holdings valued at every trading day's close, from the first trade to the
   * exchange's today; shared with the value history and cached like the returns.
   */
  async dailyValuations(snapshot: HoldingsSnapshot): Promise<readonly DailyValuation[]> {
    return (await this.computed(snapshot)).computed.valuations;
  }

  /** Returns as fractions. */
  private async performance(snapshot: HoldingsSnapshot): Promise<Performance> {
    const { computed } = await this.computed(snapshot);
    computed.performance ??= Object.freeze({
      timeWeighted: Object.freeze(timeWeightedPeriodReturns(computed.valuations, computed.asOf)),
      moneyWeighted: Object.freeze(moneyWeightedPeriodReturns(computed.valuations, computed.asOf)),
    });
    return computed.performance;
  }

  /**
   * Each position's contribution to the time-weighted return of the valuation days after `start`
   * (fractions summing to it), largest first.
   */
  async contributions(snapshot: HoldingsSnapshot, start: string): Promise<readonly PositionContribution[]> {
    const { computed, closes } = await this.computed(snapshot);
    let contributions = computed.contributionsAfter.get(start);
    if (!contributions) {
      contributions = Object.freeze(positionContributions(snapshot.ledger, closes, computed.asOf, start));
      computed.contributionsAfter.set(start, contributions);
    }
    return contributions;
  }

  /**
   * The computation for the snapshot's ledger, day and current closes, reused or new, with those
   * closes (handed over, not kept: a kept result holds no series, see same-series.ts).
   */
  private async computed({ ledger, asOf: instant }: HoldingsSnapshot): Promise<{
    computed: ComputedPerformance;
    closes: ReadonlyMap<string, readonly DailyClose[]>;
  }> {
    const asOf = exchangeDay(instant);
    if (ledger.length === 0) {
      return {
        computed: { asOf, closes: '', valuations: [], contributionsAfter: new Map() },
        closes: new Map(),
      };
    }
    const closes = await this.tradedCloses(ledger);
    const fingerprint = seriesFingerprint(closes);
    const earlier = this.performances.get(ledger);
    if (earlier && earlier.asOf === asOf && earlier.closes === fingerprint)
      return { computed: earlier, closes };
    const computed: ComputedPerformance = {
      asOf,
      closes: fingerprint,
      valuations: Object.freeze(dailyValuations(ledger, closes, asOf)),
      contributionsAfter: new Map(),
    };
    this.performances.set(ledger, computed);
    return { computed, closes };
  }

  /** Closes from the first trade on, of every symbol the (non-empty) ledger ever held. */
  private async tradedCloses(ledger: readonly LedgerEntry[]): Promise<Map<string, readonly DailyClose[]>> {
    let symbols = this.tradedSymbols.get(ledger);
    if (!symbols) {
      symbols = [...new Set(ledger.filter(isHoldingEntry).map((entry) => entry.symbol))];
      this.tradedSymbols.set(ledger, symbols);
    }
    return this.holdings.dailyCloses(symbols, tradeDay(ledger[0].executedAt));
  }
}
