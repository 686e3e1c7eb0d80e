import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { NotFoundError, RuleViolationError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { portfolioConfig } from '../../config/portfolio.config';
import { IdempotentRequest } from '../idempotency';
import { findOversell, findOversells } from './analytics/ledger-replay';
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

/** A sell the change would leave without enough shares at its time. */
export type OversoldSell = { symbol: string; appendedIndex: number } | { symbol: string; storedId: number };

/** Appending would leave sells (new ones, or ones already stored) without enough shares. */
export class OversellRejectedError extends RuleViolationError {
  constructor(readonly sells: OversoldSell[]) {
    super(ErrorDetail.insufficientQuantityToSell(sells[0].symbol));
  }
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
  ): Promise<A> {
    return this.change(userId, async (ledger) => present(await ledger.append(records)), request);
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
   * (`OversellRejectedError`), and when a record is outside the ledger limits (request bodies are
   * held to them at the edge; this also holds trades the service computed).
   */
  async append(records: NewLedgerTransaction[]): Promise<LedgerTransaction[]> {
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
    if (findOversell(candidate, existing)) {
      throw new OversellRejectedError(
        findOversells(candidate).map((violation) =>
          violation.entryId >= PROVISIONAL_ID_BASE
            ? { symbol: violation.symbol, appendedIndex: violation.entryId - PROVISIONAL_ID_BASE }
            : { symbol: violation.symbol, storedId: violation.entryId },
        ),
      );
    }
    const outside = records.find((record) => !withinTradeLimits(record));
    if (outside)
      throw new RuleViolationError(ErrorDetail.tradeOutsideLedgerLimits(outside.quantity, outside.symbol));
    const ids = await this.locked.insert(records);
    await this.locked.refreshRealizedPnl();
    return this.locked.findByIds(ids);
  }

  /** 404 for a missing id (or another user's); 400 when a later sell would exceed the quantity held without it. */
  async remove(id: number): Promise<void> {
    const existing = await this.locked.entries();
    if (!existing.some((entry) => entry.id === id)) throw new NotFoundError(ErrorDetail.transactionNotFound);
    const violation = findOversell(existing.filter((entry) => entry.id !== id));
    if (violation)
      throw new RuleViolationError(ErrorDetail.transactionDeletionWouldOversell(violation.symbol));
    await this.locked.delete(id);
    await this.locked.refreshRealizedPnl();
  }
}
