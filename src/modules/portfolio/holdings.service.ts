import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/time/clock';
import { NotFoundError, ProviderUnavailableError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { MarketService, StockQuote } from '../market';
import { DailyClose } from './analytics/daily-returns';
import { CostBasis, CostBasisMethod, replayByMethod } from './analytics/cost-basis';
import { LedgerEntry, LedgerReplay } from './analytics/ledger-replay';
import { PositionQuote, valuePositions, ValuedPosition } from './analytics/position-valuation';
import { closesOnLedgerBasis, PriceBasis } from './analytics/split-basis';
import { entriesOfAccount } from './account-ledger';
import { PortfolioAccountsRepository } from './portfolio-accounts.repository';
import { PortfolioSettingsService } from './portfolio-settings.service';
import { PortfolioTransactionsRepository } from './portfolio-transactions.repository';

export const UNKNOWN_SECTOR = 'unknown';

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
  /** Shared by every snapshot of one ledger version: the same array while the ledger is unchanged. */
  ledger: readonly LedgerEntry[];
  /** The user's cost-basis method, by which `replay` and the positions' cost bases are computed. */
  costBasis: CostBasis;
  replay: LedgerReplay;
  positions: ValuedPosition[];
  asOf: Date;
}

/**
 * Current holdings and the market data the analytics need. Positions are valued at the quoted
 * price in cents, as the market endpoints show it, so the two always agree.
 */
@Injectable()
export class HoldingsService {
  private readonly sectorBySymbol = new Map<string, string>();
  /**
   * The replays of each cached ledger version, by method, computed once. A ledger version fixes
   * its lot selections too (they are written with their sell, which bumps the version).
   */
  private readonly replays = new WeakMap<readonly LedgerEntry[], Map<CostBasisMethod, LedgerReplay>>();

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
    const [{ entries }, costBasis, account] = await Promise.all([
      this.transactions.ledger(userId),
      this.settings.costBasis(userId),
      accountId === undefined ? undefined : this.accounts.find(userId, accountId),
    ]);
    if (account === null) throw new NotFoundError(ErrorDetail.accountNotFound);
    const ledger = entriesOfAccount(entries, accountId);
    const replay = this.replayOf(ledger, costBasis);
    const symbols = [...replay.positions.keys()];
    const [quotes] = await Promise.all([this.quotes(symbols), this.loadSectors(symbols)]);
    const positions = valuePositions(replay.positions.values(), quotes, (symbol) => this.sectorOf(symbol));
    return { userId, accountId, ledger, costBasis, replay, positions, asOf: this.clock.now() };
  }

  /** The ledger replayed by the cost-basis method. */
  replayOf(ledger: readonly LedgerEntry[], costBasis: CostBasis): LedgerReplay {
    let byMethod = this.replays.get(ledger);
    if (!byMethod) {
      byMethod = new Map();
      this.replays.set(ledger, byMethod);
    }
    let replay = byMethod.get(costBasis.method);
    if (!replay) {
      replay = replayByMethod(ledger, costBasis);
      byMethod.set(costBasis.method, replay);
    }
    return replay;
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

  sectorOf(symbol: string): string {
    return this.sectorBySymbol.get(symbol) ?? UNKNOWN_SECTOR;
  }

  /** Sectors never change for a ticker, so each is asked for once per process. */
  async loadSectors(symbols: string[]): Promise<void> {
    const missing = symbols.filter((symbol) => !this.sectorBySymbol.has(symbol));
    await Promise.all(
      missing.map(async (symbol) => {
        const profile = await this.market.getProfile(symbol).catch(() => null);
        if (profile) this.sectorBySymbol.set(symbol, profile.sector ?? UNKNOWN_SECTOR);
      }),
    );
  }

  /**
   * Daily closes of each symbol from `from` to today, fetched concurrently; empty for a symbol
   * without history. Each series is the same array for as long as the market data is unchanged.
   */
  async dailyCloses(symbols: string[], from: string): Promise<Map<string, readonly DailyClose[]>> {
    const entries = await Promise.all(
      symbols.map(async (symbol): Promise<[string, readonly DailyClose[]]> => {
        try {
          return [symbol, await this.market.getDailyCloses(symbol, from)];
        } catch (error) {
          if (error instanceof NotFoundError) return [symbol, []];
          throw error;
        }
      }),
    );
    return new Map(entries);
  }

  /**
   * Daily closes to value the ledger's quantities at, on the ledger's basis (split-basis.ts): a
   * split both recorded and known to the provider's adjusted closes is never counted twice. Returns
   * and risk read `dailyCloses`, whose adjusted prices move continuously across a split.
   */
  async valuationCloses(
    ledger: readonly LedgerEntry[],
    symbols: string[],
    from: string,
  ): Promise<Map<string, readonly DailyClose[]>> {
    // Only a recorded split can be counted twice: the provider is asked about those symbols only.
    const splitSymbols = new Set(
      ledger.flatMap((entry) => (entry.side === 'split' && entry.symbol ? [entry.symbol] : [])),
    );
    const [closes, bases] = await Promise.all([
      this.dailyCloses(symbols, from),
      Promise.all(symbols.map((symbol) => (splitSymbols.has(symbol) ? this.priceBasis(symbol, from) : null))),
    ]);
    return new Map(
      symbols.map((symbol, index) => {
        const series = closes.get(symbol)!;
        const basis = bases[index];
        return [symbol, basis ? closesOnLedgerBasis(series, basis, symbol, ledger) : series];
      }),
    );
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

const cents = (value: number) => Math.round(value * 100) / 100;

function toPositionQuote(quote: StockQuote): PositionQuote {
  const price = cents(quote.price);
  return { price, change: price - cents(quote.previousClose), timestamp: new Date(quote.asOf) };
}
