import { Injectable } from '@nestjs/common';
import { CountedLru } from '../../common/metrics/cache-counters';
import { PositionContribution, positionContributions } from './analytics/contribution';
import { DailyClose } from './analytics/daily-returns';
import { appendedEntries, isHoldingEntry, latestEntry, LedgerEntry } from './analytics/ledger-replay';
import { PortfolioTotals, summarisePositions } from './analytics/portfolio-summary';
import { moneyWeightedPeriodReturns } from './analytics/money-weighted-returns';
import {
  DailyValuation,
  exchangeDay,
  LedgerValuations,
  PeriodReturns,
  timeWeightedPeriodReturns,
  valueAppended,
  valueLedger,
} from './analytics/time-weighted-returns';
import { HoldingsService, HoldingsSnapshot, ledgerOwner } from './holdings.service';
import { CACHED_LEDGER_ROWS, PortfolioTransactionsRepository } from './portfolio-transactions.repository';
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

export interface DailyValuations {
  days: readonly DailyValuation[];
  /** `<ledger version>|<exchange day>|<market-data version>`; empty for an empty ledger. */
  inputs: string;
}

/**
 * One valuation of a user's ledger: its inputs (the ledger version, the exchange day and the
 * market-data version of the closes), the valuations, and what is derived from them once asked
 * for: the returns, and the contributions after each start asked for.
 */
interface ComputedPerformance {
  /** `<ledger version>|<exchange day>|<market-data version>`: the entry is current while these are. */
  inputs: string;
  /** The ledger of that version, which a later version's appended trades are found against. */
  ledger: readonly LedgerEntry[];
  /** Its last entry in execution order, which appended trades must come after. */
  latest: LedgerEntry | undefined;
  symbols: LedgerSymbols;
  asOf: string;
  closes: string;
  valuations: LedgerValuations;
  performance?: Performance;
  contributionsAfter: Map<string, readonly PositionContribution[]>;
}

/** Totals of the current positions and the time-weighted performance of the ledger. */
@Injectable()
export class PortfolioSummaryService {
  /**
   * The last valuation of each user's ledger (of one account, or all), by `<user>:<account>`. It
   * is a pure function of the ledger version, the closes and the exchange day (not of the
   * cost-basis method), so it is reused while all three are the same, and carried on when trades
   * were appended to the ledger since. The closes' market-data version is seriesFingerprint's
   * (same-series.ts). Sized by ledger rows like the ledgers' own cache, whose arrays it shares.
   */
  private readonly latest = new CountedLru<string, ComputedPerformance>('portfolio-performance', {
    maxSize: CACHED_LEDGER_ROWS,
    sizeCalculation: (computed) => Math.max(1, computed.ledger.length),
  });

  constructor(
    private readonly holdings: HoldingsService,
    private readonly transactions: PortfolioTransactionsRepository,
  ) {}

  /** With `includeCash`, also the cash balance and the value including it. */
  async summary(userId: number, includeCash = false, accountId?: number): Promise<PortfolioSummary> {
    return this.summarise(await this.holdings.snapshot(userId, accountId), includeCash);
  }

  /**
   * The summary's totals alone (value, cost, day change, positions), without the returns over the
   * ledger's history: what a check on the value or the day's move needs, for a fraction of the work.
   */
  async totals(userId: number): Promise<PortfolioTotals & { asOf: Date }> {
    const snapshot = await this.holdings.snapshot(userId);
    return { ...this.totalsOf(snapshot), asOf: snapshot.asOf };
  }

  /** The totals of a snapshot's positions: value, cost, day change, sectors, best and worst. */
  totalsOf(snapshot: HoldingsSnapshot): PortfolioTotals {
    return summarisePositions(snapshot.positions, snapshot.replay.totalRealizedPnl);
  }

  /** Of these users, those with any ledger entry: the others hold nothing to value. */
  usersWithLedger(userIds: readonly number[]): Promise<Set<number>> {
    return this.transactions.usersWithEntries(userIds);
  }

  async summarise(snapshot: HoldingsSnapshot, includeCash = false): Promise<PortfolioSummary> {
    const totals = this.totalsOf(snapshot);
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
   * exchange's today; shared with the value history and cached like the returns. `inputs` names
   * what they were computed from (ledger version, exchange day, market-data version), empty for an
   * empty ledger, for a cache of what is derived from them.
   */
  async dailyValuations(snapshot: HoldingsSnapshot): Promise<DailyValuations> {
    const { computed } = await this.computed(snapshot);
    return { days: computed.valuations.days, inputs: computed.inputs };
  }

  /** Returns as fractions. */
  private async performance(snapshot: HoldingsSnapshot): Promise<Performance> {
    const { computed } = await this.computed(snapshot);
    computed.performance ??= Object.freeze({
      timeWeighted: Object.freeze(timeWeightedPeriodReturns(computed.valuations.days, computed.asOf)),
      moneyWeighted: Object.freeze(moneyWeightedPeriodReturns(computed.valuations.days, computed.asOf)),
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
   * The computation for the snapshot's ledger, day and current closes, reused, carried on or new,
   * with those closes (handed over, not kept: a kept result holds no series, see same-series.ts).
   */
  private async computed({
    userId,
    accountId,
    ledgerVersion,
    ledger,
    asOf: instant,
  }: HoldingsSnapshot): Promise<{
    computed: ComputedPerformance;
    closes: ReadonlyMap<string, readonly DailyClose[]>;
  }> {
    const asOf = exchangeDay(instant);
    if (ledger.length === 0) {
      const valuations = { days: [], checkpoint: null };
      return {
        computed: {
          inputs: '',
          ledger,
          latest: undefined,
          symbols: NO_SYMBOLS,
          asOf,
          closes: '',
          valuations,
          contributionsAfter: new Map(),
        },
        closes: new Map(),
      };
    }
    const slot = ledgerOwner(userId, accountId);
    const earlier = this.latest.peek(slot);
    const appended =
      earlier &&
      (earlier.inputs.startsWith(`${ledgerVersion}|`)
        ? []
        : appendedEntries(ledger, earlier.ledger, earlier.latest));
    // Carried on over the appended trades, as `latest` is: scanning a 100,000-entry ledger for its
    // splits on each new version was more than half of the first summary's time after a write.
    const symbols = withSymbolsOf(appended ? earlier!.symbols : NO_SYMBOLS, appended ?? ledger);
    const closes = await this.holdings.valuationCloses(
      ledger,
      [...symbols.traded],
      symbols.split,
      ledger[0].tradeDate,
    );
    const marketData = seriesFingerprint(closes);
    const inputs = `${ledgerVersion}|${asOf}|${marketData}`;
    const current = this.latest.getCurrent(slot, (entry) => entry.inputs === inputs);
    if (current) return { computed: current, closes };
    const sameMarket = earlier && earlier.asOf === asOf && earlier.closes === marketData;
    const valuations =
      (sameMarket && appended && valueAppended(earlier.valuations, appended, closes, asOf)) ||
      valueLedger(ledger, closes, asOf);
    const computed: ComputedPerformance = {
      inputs,
      ledger,
      latest: appended ? (appended.at(-1) ?? earlier!.latest) : latestEntry(ledger),
      symbols,
      asOf,
      closes: marketData,
      valuations,
      contributionsAfter: new Map(),
    };
    this.latest.set(slot, computed);
    return { computed, closes };
  }
}

/** The symbols of a ledger's entries. */
interface LedgerSymbols {
  /** Every symbol the ledger ever traded, in order of first trade. */
  traded: readonly string[];
  /** The symbols it records a split of. */
  split: ReadonlySet<string>;
}

const NO_SYMBOLS: LedgerSymbols = Object.freeze({ traded: Object.freeze([]), split: new Set<string>() });

/** `symbols` with those of `entries` added (traded ones in order of first appearance); the same object when none is new. */
function withSymbolsOf(symbols: LedgerSymbols, entries: readonly LedgerEntry[]): LedgerSymbols {
  const traded = new Set(symbols.traded);
  let split: Set<string> | undefined;
  for (const entry of entries) {
    if (!isHoldingEntry(entry)) continue;
    traded.add(entry.symbol);
    if (entry.side === 'split' && !symbols.split.has(entry.symbol))
      (split ??= new Set(symbols.split)).add(entry.symbol);
  }
  if (traded.size === symbols.traded.length && !split) return symbols;
  return {
    traded: traded.size === symbols.traded.length ? symbols.traded : Object.freeze([...traded]),
    split: split ?? symbols.split,
  };
}
