import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { NotFoundError, RuleViolationError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { portfolioConfig } from '../../config/portfolio.config';
import { IdempotentRequest } from '../idempotency';
import {
  findCashShortfall,
  findOversell,
  findOversells,
  OversellError,
  TRADE_KINDS,
  UnheldPositionError,
} from './analytics/ledger-replay';
import { LedgerTransaction, NewLedgerTransaction } from './ledger-transaction';
import { withinTradeLimits } from './ledger-limits';
import {
  LockedLedger,
  PortfolioTransactionsRepository,
  StoredTransaction,
} from './portfolio-transactions.repository';

/** Ids for entries not yet stored: after every stored id, in the order given. */
const PROVISIONAL_ID_BASE = Number.MAX_SAFE_INTEGER - 1_000_000;

/**
 * How the caller answers with what was recorded. An idempotent retry gets the first answer again,
 * so the answer kept under its key is the presented one: exactly the body first sent.
 */
export type Present<T, A> = (recorded: T) => A;

/** Where an entry that a change made impossible is: among the appended records, or already stored. */
export type EntryAt = { appendedIndex: number } | { storedId: number };

/** A sell the change would leave without enough shares at its time. */
export type OversoldSell = { symbol: string } & EntryAt;

/** Appending would leave sells (new ones, or ones already stored) without enough shares. */
export class OversellRejectedError extends RuleViolationError {
  constructor(readonly sells: OversoldSell[]) {
    super(ErrorDetail.insufficientQuantityToSell(sells[0].symbol));
  }
}

/** Appending would leave a dividend or a split without a position (see replayLedger). */
export class UnheldPositionRejectedError extends RuleViolationError {
  constructor(
    readonly symbol: string,
    readonly entryKind: 'dividend' | 'split',
    readonly at: EntryAt,
  ) {
    super(
      entryKind === 'dividend'
        ? ErrorDetail.dividendWithoutPosition(symbol)
        : ErrorDetail.splitWithoutPosition(symbol),
    );
  }
}

/** Under strict cash, appending would take the cash balance below zero. */
export class InsufficientCashError extends RuleViolationError {
  constructor(
    readonly entryKind: string,
    readonly at: EntryAt,
  ) {
    super(ErrorDetail.insufficientCash(entryKind));
  }
}

function entryAt(entryId: number): EntryAt {
  return entryId >= PROVISIONAL_ID_BASE
    ? { appendedIndex: entryId - PROVISIONAL_ID_BASE }
    : { storedId: entryId };
}

/**
 * The one way to write a user's ledger. Every change runs holding the user's ledger lock (see
 * `PortfolioTransactionsRepository.withLockedLedger`), so every check sees the last state.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly repository: PortfolioTransactionsRepository,
    @Inject(portfolioConfig.KEY) private readonly config: ConfigType<typeof portfolioConfig>,
  ) {}

  /**
   * Runs `work` on the locked ledger, in one database transaction. With an idempotent request it
   * runs at most once per key, and a retry gets the answer `work` returned the first time.
   */
  change<T>(
    userId: number,
    work: (ledger: LedgerChange) => Promise<T>,
    request?: IdempotentRequest,
  ): Promise<T> {
    return this.repository.withLockedLedger(
      userId,
      (locked) => work(new LedgerChange(locked, this.config.maxTransactions)),
      request,
    );
  }

  /** Appends `records` in one locked change and answers with them as stored, in the same order. */
  append<A>(
    userId: number,
    records: NewLedgerTransaction[],
    present: Present<LedgerTransaction[], A>,
    request?: IdempotentRequest,
    strictCash = false,
  ): Promise<A> {
    return this.change(userId, async (ledger) => present(await ledger.append(records, strictCash)), request);
  }
}

/** A user's ledger inside one locked change. */
export class LedgerChange {
  constructor(
    private readonly locked: LockedLedger,
    private readonly maxTransactions: number,
  ) {}

  get userId(): number {
    return this.locked.userId;
  }

  /** The ledger in execution order, including what this change has written. */
  entries(): Promise<readonly StoredTransaction[]> {
    return this.locked.entries();
  }

  /**
   * Stores `records` and refreshes the realized P&L of the sells after them. 400 when the ledger
   * would exceed PORTFOLIO_MAX_TRANSACTIONS, when a sell would exceed the quantity held at its time
   * (`OversellRejectedError`), when a dividend or split would have no position
   * (`UnheldPositionRejectedError`), when a trade is outside the ledger limits (request bodies are
   * held to them at the edge; this also holds trades the service computed), and, with `strictCash`,
   * when the cash balance would fall below zero at any time (`InsufficientCashError`, naming the
   * first entry that overdraws it).
   */
  async append(records: NewLedgerTransaction[], strictCash = false): Promise<LedgerTransaction[]> {
    const existing = await this.locked.entries();
    if (existing.length + records.length > this.maxTransactions)
      throw new RuleViolationError(ErrorDetail.ledgerFull(this.maxTransactions));
    const provisional = records.map((record, index) => ({
      ...record,
      id: PROVISIONAL_ID_BASE + index,
      realizedPnl: null,
    }));
    const candidate = [...existing, ...provisional];
    // One replay answers the common case; every violation is looked for only when there is one.
    const first = findOversell(candidate);
    if (first instanceof UnheldPositionError)
      throw new UnheldPositionRejectedError(first.symbol, first.kind, entryAt(first.entryId));
    if (first) {
      throw new OversellRejectedError(
        findOversells(candidate)
          .filter((violation) => violation instanceof OversellError)
          .map((violation) => ({ symbol: violation.symbol, ...entryAt(violation.entryId) })),
      );
    }
    const outside = records.find((record) => TRADE_KINDS.includes(record.side) && !withinTradeLimits(record));
    if (outside)
      throw new RuleViolationError(ErrorDetail.tradeOutsideLedgerLimits(outside.quantity, outside.symbol!));
    const shortfall = strictCash ? findCashShortfall(candidate) : null;
    if (shortfall) throw new InsufficientCashError(shortfall.side, entryAt(shortfall.id));
    const ids = await this.locked.insert(records);
    await this.locked.refreshRealizedPnl();
    return this.locked.findByIds(ids);
  }

  /**
   * 404 for a missing id (or another user's); 400 when a later sell would exceed the quantity held
   * without it, a later dividend or split would have no position, or, with `strictCash`, the cash
   * balance would fall below zero at any time.
   */
  async remove(id: number, strictCash = false): Promise<void> {
    const existing = await this.locked.entries();
    if (!existing.some((entry) => entry.id === id)) throw new NotFoundError(ErrorDetail.transactionNotFound);
    const remaining = existing.filter((entry) => entry.id !== id);
    const violation = findOversell(remaining);
    if (violation instanceof UnheldPositionError)
      throw new RuleViolationError(
        ErrorDetail.transactionDeletionWouldLeaveNoPosition(violation.kind, violation.symbol),
      );
    if (violation)
      throw new RuleViolationError(ErrorDetail.transactionDeletionWouldOversell(violation.symbol));
    if (strictCash && findCashShortfall(remaining))
      throw new RuleViolationError(ErrorDetail.transactionDeletionWouldOverdraw);
    await this.locked.delete(id);
    await this.locked.refreshRealizedPnl();
  }
}
