import { Inject, Injectable } from '@nestjs/common';
import { CountedLru } from '../../common/metrics/cache-counters';
import { Clock } from '../../common/time/clock';
import { NotFoundError, ProviderUnavailableError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { MarketService, StockQuote } from '../market';
import { DailyClose } from './analytics/daily-returns';
import { CostBasis, replayByMethod } from './analytics/cost-basis';
import { LedgerEntry, LedgerReplay } from './analytics/ledger-replay';
import { PositionQuote, valuePositions, ValuedPosition } from './analytics/position-valuation';
import { asTradedCloses, PriceBasis, splitsToUndo } from './analytics/split-basis';
import { entriesOfAccount } from './account-ledger';
import { PortfolioAccountsRepository } from './portfolio-accounts.repository';
import { PortfolioSettingsService } from './portfolio-settings.service';
import {
  CACHED_LEDGER_ROWS,
  LedgerVersion,
  PortfolioTransactionsRepository,
  replayOfVersion,
} from './portfolio-transactions.repository';
import { seriesVersion } from './same-series';

export const UNKNOWN_SECTOR = 'unknown';

/** Symbols whose sector is kept, and for how long: a company's sector rarely changes, but it can. */
const KEPT_SECTORS = 10_000;
const SECTOR_TTL_MS = 24 * 60 * 60 * 1000;
/** Daily closes put back as traded kept across symbols: about 80 twenty-year series. */
const KEPT_AS_TRADED_CLOSES = 400_000;

/** What the holdings read of the market: quotes, sectors, daily closes and the closes' split basis. */
export type HoldingsMarket = Pick<MarketService, 'getQuotes' | 'getProfile' | 'getDailyCloses' | 'getSplits'>;

/** What the holdings read of the ledger. */
export type HoldingsLedger = Pick<PortfolioTransactionsRepository, 'ledger'>;

/** How the holdings check that an account is the user's. */
export type HoldingsAccounts = Pick<PortfolioAccountsRepository, 'find'>;

/** How the holdings learn the user's cost-basis method. */
export type HoldingsCostBasis = Pick<PortfolioSettingsService, 'costBasis'>;

/** A user's ledger and the positions it leaves, valued at one batch of live quotes. */
export interface HoldingsSnapshot {
  userId: number;
  /** The one account the snapshot is of; undefined for every account combined. */
  accountId?: number;
  /** The version of the user's ledger the snapshot is of: what its cached derivations are keyed by. */
  ledgerVersion: number;
  /** Shared by every snapshot of one ledger version: the same array while the ledger is unchanged. */
  ledger: readonly LedgerEntry[];
  /** The user's cost-basis method, by which `replay` and the positions' cost bases are computed. */
  costBasis: CostBasis;
  replay: LedgerReplay;
  /** Frozen, and the same array while the replay, the quotes and the sectors are. */
  positions: readonly ValuedPosition[];
  asOf: Date;
}

/**
 * Current holdings and the market data the analytics need. Positions are valued at the quoted
 * price in cents, as the market endpoints show it, so the two always agree.
 */
@Injectable()
export class HoldingsService {
  /** Sector by symbol, asked of the market once a day at most. */
  private readonly sectors = new CountedLru<string, string>('portfolio-sectors', {
    max: KEPT_SECTORS,
    ttl: SECTOR_TTL_MS,
  });
  /**
   * One account's entries, by `<user>:<account>`, current while the ledger version is the
   * entry's; sized in ledger rows.
   */
  private readonly accountLedgers = new CountedLru<string, VersionOf<readonly LedgerEntry[]>>(
    'portfolio-account-ledgers',
    {
      maxSize: CACHED_LEDGER_ROWS,
      sizeCalculation: (entry) => Math.max(1, entry.rows),
    },
  );
  /**
   * The ledger replayed by a cost-basis method, by `<user>:<account>:<method>`, current while the
   * ledger version is the entry's. A ledger version fixes its lot selections too (they are written
   * with their sell, which bumps the version). Sized in the ledger rows replayed.
   */
  private readonly replays = new CountedLru<string, VersionOf<LedgerReplay>>('portfolio-replays', {
    maxSize: CACHED_LEDGER_ROWS,
    sizeCalculation: (entry) => Math.max(1, entry.rows),
  });

  /**
   * The last valuation of each replay (kept while the replay is cached), reused while every held
   * symbol's quote and sector is the same: quotes change far less often than they are read.
   */
  private readonly valuations = new WeakMap<LedgerReplay, Valuation>();

  /**
   * A provider's adjusted closes put back as traded before the splits a ledger records, by
   * `<symbol>:<splits undone>`, current while the provider's series is the same market-data
   * version (same-series.ts); shared by every ledger recording those splits. Sized in closes.
   */
  private readonly asTraded = new CountedLru<
    string,
    { closesVersion: number; closes: readonly DailyClose[] }
  >('portfolio-split-closes', {
    maxSize: KEPT_AS_TRADED_CLOSES,
    sizeCalculation: (entry) => Math.max(1, entry.closes.length),
  });

  constructor(
    @Inject(PortfolioTransactionsRepository) private readonly transactions: HoldingsLedger,
    @Inject(MarketService) private readonly market: HoldingsMarket,
    private readonly clock: Clock,
    @Inject(PortfolioSettingsService) private readonly settings: HoldingsCostBasis,
    @Inject(PortfolioAccountsRepository) private readonly accounts: HoldingsAccounts,
  ) {}

  /**
   * The holdings of one account (404 `Account not found` when it is not the user's) or of every
   * account combined.
   */
  async snapshot(userId: number, accountId?: number): Promise<HoldingsSnapshot> {
    const [stored, costBasis] = await Promise.all([
      this.transactions.ledger(userId),
      this.settings.costBasis(userId),
    ]);
    const owner = ledgerOwner(userId, accountId);
    const ledger = await this.ledgerOf(userId, owner, stored, accountId);
    const replay = this.replayOf(owner, stored, ledger, costBasis);
    const symbols = [...replay.positions.keys()];
    const [quotes, sectors] = await Promise.all([this.quotes(symbols), this.sectorsOf(symbols)]);
    const positions = this.valued(replay, quotes, sectors);
    return {
      userId,
      accountId,
      ledgerVersion: stored.version,
      ledger,
      costBasis,
      replay,
      positions,
      asOf: this.clock.now(),
    };
  }

  /** The user's whole stored ledger replayed by the cost-basis method. */
  replayOfStored(userId: number, stored: LedgerVersion, costBasis: CostBasis): LedgerReplay {
    return this.replayOf(ledgerOwner(userId, undefined), stored, stored.entries, costBasis);
  }

  /**
   * The entries of one account of a ledger version (all of them when none is named); 404 when the
   * account is not the user's. An account's entries are kept only once it was found, and deleting
   * an account moves the ledger's version on, so entries of the current version prove that the
   * account exists: a repeated read makes one database round trip (the version), not two.
   */
  private async ledgerOf(
    userId: number,
    owner: string,
    stored: LedgerVersion,
    accountId: number | undefined,
  ): Promise<readonly LedgerEntry[]> {
    if (accountId === undefined) return stored.entries;
    let cached = this.accountLedgers.getCurrent(owner, (entry) => entry.version === stored.version);
    if (!cached) {
      if (!(await this.accounts.find(userId, accountId)))
        throw new NotFoundError(ErrorDetail.accountNotFound);
      const entries = entriesOfAccount(stored.entries, accountId);
      cached = { version: stored.version, rows: entries.length, value: entries };
      this.accountLedgers.set(owner, cached);
    }
    return cached.value;
  }

  /** `ledger`: the stored version's entries, or one account's of them. */
  private replayOf(
    owner: string,
    stored: LedgerVersion,
    ledger: readonly LedgerEntry[],
    costBasis: CostBasis,
  ): LedgerReplay {
    const { version } = stored;
    const slot = `${owner}:${costBasis.method}`;
    let cached = this.replays.getCurrent(slot, (entry) => entry.version === version);
    if (!cached) {
      // The whole ledger's average-cost replay is the version's own, which its write may have made.
      const replayed = ledger === stored.entries ? replayOfVersion(stored) : undefined;
      cached = { version, rows: ledger.length, value: replayByMethod(ledger, costBasis, replayed) };
      this.replays.set(slot, cached);
    }
    return cached.value;
  }

  private valued(
    replay: LedgerReplay,
    quotes: ReadonlyMap<string, PositionQuote>,
    sectors: ReadonlyMap<string, string>,
  ): readonly ValuedPosition[] {
    const last = this.valuations.get(replay);
    if (last && sameQuotes(last.quotes, quotes) && sameSectors(last.sectors, sectors)) return last.positions;
    const positions = Object.freeze(
      valuePositions(replay.positions.values(), quotes, (symbol) => sectors.get(symbol)!).map((position) =>
        Object.freeze(position),
      ),
    );
    this.valuations.set(replay, { quotes, sectors, positions });
    return positions;
  }

  /** Quotes of many symbols in one batched call, at cent prices; 500 when a held symbol has none. */
  async quotes(symbols: string[]): Promise<Map<string, PositionQuote>> {
    const quotes = await this.market.getQuotes(symbols);
    const result = new Map<string, PositionQuote>();
    for (const symbol of symbols) {
      const quote = quotes.get(symbol);
      if (!quote) throw new ProviderUnavailableError(ErrorDetail.stockDataRetrievalFailed(symbol));
      result.set(symbol, toPositionQuote(quote));
    }
    return result;
  }

  /** Raw quotes of many symbols in one batched call; null for a symbol the provider does not know. */
  rawQuotes(symbols: string[]): Promise<Map<string, StockQuote | null>> {
    return this.market.getQuotes(symbols);
  }

  /**
   * The sector of each symbol (UNKNOWN_SECTOR when the market has none or cannot say now). A
   * symbol's sector is asked of the market once a day at most; a failed lookup is asked again.
   */
  async sectorsOf(symbols: string[]): Promise<Map<string, string>> {
    const sectors = new Map<string, string>();
    const missing: string[] = [];
    for (const symbol of symbols) {
      const cached = this.sectors.get(symbol);
      if (cached === undefined) missing.push(symbol);
      else sectors.set(symbol, cached);
    }
    await Promise.all(
      missing.map(async (symbol) => {
        const profile = await this.market.getProfile(symbol).catch(() => null);
        const sector = profile?.sector ?? UNKNOWN_SECTOR;
        if (profile) this.sectors.set(symbol, sector);
        sectors.set(symbol, sector);
      }),
    );
    return sectors;
  }

  /**
   * Daily closes of each symbol from `from` to today; empty for a symbol without history. Each
   * series is the same array for as long as the market data is unchanged.
   */
  dailyCloses(symbols: readonly string[], from: string): Promise<Map<string, readonly DailyClose[]>> {
    return this.market.getDailyCloses(symbols, from);
  }

  /**
   * Daily closes to value the ledger's quantities at, on the ledger's basis (split-basis.ts): a
   * split both recorded and known to the provider's adjusted closes is never counted twice. Returns
   * and risk read `dailyCloses`, whose adjusted prices move continuously across a split.
   * `splitSymbols` are the symbols the ledger records a split of: the provider is asked about those
   * only, since only a recorded split can be counted twice.
   */
  async valuationCloses(
    ledger: readonly LedgerEntry[],
    symbols: string[],
    splitSymbols: ReadonlySet<string>,
    from: string,
  ): Promise<Map<string, readonly DailyClose[]>> {
    const [closes, bases] = await Promise.all([
      this.dailyCloses(symbols, from),
      Promise.all(symbols.map((symbol) => (splitSymbols.has(symbol) ? this.priceBasis(symbol, from) : null))),
    ]);
    return new Map(
      symbols.map((symbol, index) => {
        const series = closes.get(symbol)!;
        const basis = bases[index];
        return [symbol, basis ? this.onLedgerBasis(series, basis, symbol, ledger) : series];
      }),
    );
  }

  /**
   * The closes of the symbol on the ledger's basis: the provider's series itself, or the same
   * frozen array put back as traded for as long as the series is unchanged, so that the analytics
   * keyed by its market-data version stay current.
   */
  private onLedgerBasis(
    series: readonly DailyClose[],
    basis: PriceBasis,
    symbol: string,
    ledger: readonly LedgerEntry[],
  ): readonly DailyClose[] {
    const undone = splitsToUndo(series, basis, symbol, ledger);
    if (undone.length === 0) return series;
    const key = `${symbol}:${undone.map(({ date, to, from }) => `${date}=${to}/${from}`).join(',')}`;
    const closesVersion = seriesVersion(series);
    let kept = this.asTraded.getCurrent(key, (entry) => entry.closesVersion === closesVersion);
    if (!kept) {
      kept = { closesVersion, closes: asTradedCloses(series, undone) };
      this.asTraded.set(key, kept);
    }
    return kept.closes;
  }

  /** The splits the provider knows since `from` and its closes' basis; null for an unknown symbol. */
  private async priceBasis(symbol: string, from: string): Promise<PriceBasis | null> {
    try {
      return await this.market.getSplits(symbol, from);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }
}

/** A value derived from one ledger version, with the ledger rows it was derived from (its size). */
export interface VersionOf<T> {
  version: number;
  rows: number;
  value: T;
}

/** Whose ledger a derived figure is of: the user and one account, or all of them. */
export function ledgerOwner(userId: number, accountId: number | undefined): string {
  return `${userId}:${accountId ?? 'all'}`;
}

const cents = (value: number) => Math.round(value * 100) / 100;

/** A replay's positions valued at these quotes and sectors. */
interface Valuation {
  quotes: ReadonlyMap<string, PositionQuote>;
  sectors: ReadonlyMap<string, string>;
  positions: readonly ValuedPosition[];
}

function sameQuotes(a: ReadonlyMap<string, PositionQuote>, b: ReadonlyMap<string, PositionQuote>): boolean {
  if (a.size !== b.size) return false;
  for (const [symbol, quote] of b) {
    const other = a.get(symbol);
    if (
      !other ||
      other.price !== quote.price ||
      other.change !== quote.change ||
      other.timestamp.getTime() !== quote.timestamp.getTime()
    )
      return false;
  }
  return true;
}

function sameSectors(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [symbol, sector] of b) if (a.get(symbol) !== sector) return false;
  return true;
}

function toPositionQuote(quote: StockQuote): PositionQuote {
  const price = cents(quote.price);
  return { price, change: price - cents(quote.previousClose), timestamp: new Date(quote.asOf) };
}
