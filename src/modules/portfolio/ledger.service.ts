import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ConflictError, NotFoundError, RuleViolationError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { FieldProblems } from '../../common/errors/field-problems';
import { portfolioConfig } from '../../config/portfolio.config';
import { replayByMethod } from './analytics/cost-basis';
import {
  findCashShortfall,
  findOversell,
  findOversells,
  LedgerEntry,
  LedgerReplay,
  OversellError,
  replayLedger,
  TRADE_KINDS,
  PositionEventKind,
  QUANTITY_EPSILON,
  SplitBelowMinimumError,
  UnheldPositionError,
} from './analytics/ledger-replay';
import { LotSelection, LotSelectionProblem, matchLots } from './analytics/tax-lots';
import {
  LedgerTransaction,
  NewLedgerTransaction,
  PlacedLedgerTransaction,
  withRealizedPnlOf,
} from './ledger-transaction';
import { withinTradeLimits } from './ledger-limits';
import {
  DEFAULT_PORTFOLIO_SETTINGS,
  PortfolioSettings,
  PortfolioSettingsService,
} from './portfolio-settings.service';
import { PortfolioGraphService } from './portfolio-graph.service';
import { quantity as toLedgerScale } from './portfolio-rounding';
import {
  LockedLedger,
  PortfolioTransactionsRepository,
  StoredTransaction,
} from './portfolio-transactions.repository';

/** Ids for entries not yet stored: after every stored id, in the order given. */
const PROVISIONAL_ID_BASE = Number.MAX_SAFE_INTEGER - 1_000_000;

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

/** Appending would leave a dividend, a split or a position fee without a position (see replayLedger). */
export class UnheldPositionRejectedError extends RuleViolationError {
  constructor(
    readonly symbol: string,
    readonly entryKind: PositionEventKind,
    readonly at: EntryAt,
  ) {
    super(UNHELD_POSITION_DETAILS[entryKind](symbol));
  }
}

const UNHELD_POSITION_DETAILS: Record<PositionEventKind, (symbol: string) => string> = {
  dividend: ErrorDetail.dividendWithoutPosition,
  split: ErrorDetail.splitWithoutPosition,
  fee: ErrorDetail.feeWithoutPosition,
};

/** Under strict cash, appending would take the cash balance below zero. */
export class InsufficientCashError extends RuleViolationError {
  constructor(
    readonly entryKind: string,
    readonly at: EntryAt,
  ) {
    super(ErrorDetail.insufficientCash(entryKind));
  }
}

/** The id an appended record has until it is stored: a receiving leg names its sending leg by it. */
export function provisionalId(appendedIndex: number): number {
  return PROVISIONAL_ID_BASE + appendedIndex;
}

function entryAt(entryId: number): EntryAt {
  return entryId >= PROVISIONAL_ID_BASE
    ? { appendedIndex: entryId - PROVISIONAL_ID_BASE }
    : { storedId: entryId };
}

/** A lot that a record about to be appended (a sell) names, by the record's index. */
export interface NewLotSelection {
  appendedIndex: number;
  lotId: number;
  quantity: number;
}

/** A new selection the ledger cannot honour at its sell's time. */
export type RejectedLotSelection = Omit<LotSelectionProblem, 'sellId'> & { appendedIndex: number };

/** Appended sells name lots that are not open (enough) at their time. */
export class LotSelectionRejectedError extends RuleViolationError {
  constructor(readonly rejected: RejectedLotSelection[]) {
    super(rejectedLotDetail(rejected[0]));
  }
}

/** Why the ledger cannot honour a selection, for the caller. */
export function rejectedLotDetail(rejected: RejectedLotSelection): string {
  return rejected.reason === 'closed'
    ? ErrorDetail.lotNotOpen(rejected.lotId, rejected.symbol)
    : ErrorDetail.lotTooSmall(rejected.lotId, toLedgerScale(rejected.open), rejected.symbol);
}

/**
 * The one way to write a user's ledger. Every change runs holding the user's ledger lock (see
 * `PortfolioTransactionsRepository.withLockedLedger`), so every check sees the last state.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly repository: PortfolioTransactionsRepository,
    private readonly settings: PortfolioSettingsService,
    private readonly graph: PortfolioGraphService,
    private readonly host: TransactionHost<TransactionalAdapterTypeOrm>,
    @Inject(portfolioConfig.KEY) private readonly config: ConfigType<typeof portfolioConfig>,
  ) {}

  /**
   * Runs `work` on the locked ledger, in one database transaction (the caller's, when it has
   * one: an idempotent route's, see `@Idempotent()`).
   */
  async change<T>(userId: number, work: (ledger: LedgerChange) => Promise<T>): Promise<T> {
    // Read before the lock: a cache miss inside the transaction would wait for a second pool
    // connection while holding one, and enough concurrent writes would hold them all.
    const settings = await this.settings.settings(userId);
    const answer = await this.repository.withLockedLedger(userId, (locked) =>
      work(new LedgerChange(locked, this.config.maxTransactions, settings)),
    );
    // Not awaited: the write is answered without waiting on the market graph (its first build can
    // take seconds), and every graph read brings the user's edges up to the ledger version first.
    // Outside the caller's transaction, which may commit (and release its connection) before it ends.
    void this.host.withoutTransaction(() => this.graph.afterLedgerChange(userId));
    return answer;
  }
}

/** A user's ledger inside one locked change. */
export class LedgerChange {
  constructor(
    private readonly locked: LockedLedger,
    private readonly maxTransactions: number,
    /**
     * The user's settings, read once per change: with strict cash, a change that takes the cash
     * balance below zero is refused; the cost-basis method is how realized P&L is shown.
     */
    private readonly settings: PortfolioSettings = DEFAULT_PORTFOLIO_SETTINGS,
  ) {}

  get userId(): number {
    return this.locked.userId;
  }

  /** The ledger in execution order, including what this change has written. */
  entries(): Promise<readonly StoredTransaction[]> {
    return this.locked.entries();
  }

  /** The replay of `entries` (the ledger or a part of it), carried on from this change's when it can be. */
  replay(entries: readonly LedgerEntry[]): LedgerReplay {
    return replayLedger(entries, this.locked.replayed());
  }

  /**
   * Stores `records`, with the lots their sells name, and refreshes the realized P&L of the sells
   * after them. 400 when the ledger would exceed PORTFOLIO_MAX_TRANSACTIONS, when a sell would
   * exceed the quantity held at its time (`OversellRejectedError`), when a dividend, split or
   * position fee would have no position (`UnheldPositionRejectedError`), when a split would leave
   * less than the smallest stored quantity, when a named lot is not open enough at its
   * sell's time (`LotSelectionRejectedError`), when a trade is outside the ledger limits (request
   * bodies are held to them at the edge; this also holds trades the service computed), and, with
   * the strict-cash setting, when the change takes the cash balance below zero (and below where it
   * stood) at any time (`InsufficientCashError`, naming the first entry that overdraws it). 409 when a stored sell's named lot would no longer
   * be open enough for it.
   */
  async append(
    given: NewLedgerTransaction[],
    lotSelections: readonly NewLotSelection[] = [],
  ): Promise<LedgerTransaction[]> {
    return this.locked.findByIds(await this.appendIds(given, lotSelections));
  }

  /**
   * `append`, answering the stored ids in the records' order without reading the rows back: for a
   * caller that shows none of them (an import of 20,000 rows read them all back to use their ids).
   */
  async appendIds(
    given: NewLedgerTransaction[],
    lotSelections: readonly NewLotSelection[] = [],
  ): Promise<number[]> {
    const records = await this.inAccounts(given);
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
    const first = findOversell(candidate, this.locked.replayed());
    if (first instanceof UnheldPositionError)
      throw new UnheldPositionRejectedError(first.symbol, first.kind, entryAt(first.entryId));
    if (first instanceof SplitBelowMinimumError)
      throw new RuleViolationError(ErrorDetail.splitBelowSmallestQuantity(first.symbol));
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
    const shortfall = this.settings.strictCash ? findCashShortfall(candidate, existing) : null;
    if (shortfall) throw new InsufficientCashError(shortfall.side, entryAt(shortfall.id));
    const selections = lotSelections.map(({ appendedIndex, ...selection }) => ({
      ...selection,
      sellId: PROVISIONAL_ID_BASE + appendedIndex,
    }));
    const problems = await this.lotSelectionProblems(candidate, selections);
    const rejected = problems.filter((problem) => problem.sellId >= PROVISIONAL_ID_BASE);
    if (rejected.length > 0) {
      throw new LotSelectionRejectedError(
        rejected.map(({ sellId, ...problem }) => ({
          ...problem,
          appendedIndex: sellId - PROVISIONAL_ID_BASE,
        })),
      );
    }
    if (problems.length > 0)
      throw new ConflictError(
        ErrorDetail.transactionWouldBreakLotSelection(problems[0].sellId, problems[0].lotId),
      );
    const ids = await this.insertLinked(records);
    await this.locked.insertLotSelections(
      lotSelections.map(({ appendedIndex, ...selection }) => ({ ...selection, sellId: ids[appendedIndex] })),
    );
    await this.locked.refreshRealizedPnl();
    return ids;
  }

  /**
   * Replaces the stored transaction `id` by `record`, under the rules of a new entry: the errors of
   * `append` (at `{appendedIndex: 0}` for the edited entry), a 409 when a stored sell's named lot
   * would lose its shares. `lotSelections` replace the lots the edited sell names; undefined keeps
   * them while it stays a sell. Realized P&L is re-derived as for a back-dated entry; the values
   * replaced are kept in the transaction's history. 404 for a missing id (or another user's).
   */
  async edit(
    id: number,
    given: NewLedgerTransaction,
    lotSelections: readonly NewLotSelection[] | undefined,
    updatedAt: Date,
  ): Promise<LedgerTransaction> {
    const [record] = await this.inAccounts([given]);
    const existing = await this.locked.entries();
    const stored = existing.find((entry) => entry.id === id);
    if (!stored) throw new NotFoundError(ErrorDetail.transactionNotFound);
    if (stored.transferOf != null || existing.some((entry) => entry.transferOf === id))
      throw new ConflictError(ErrorDetail.transferLegNotEditable);
    const edited = { ...stored, ...record, id };
    const candidate = existing.map((entry) => (entry.id === id ? edited : entry));
    const at = (entryId: number): EntryAt => (entryId === id ? { appendedIndex: 0 } : { storedId: entryId });
    const first = findOversell(candidate);
    if (first instanceof UnheldPositionError)
      throw new UnheldPositionRejectedError(first.symbol, first.kind, at(first.entryId));
    if (first instanceof SplitBelowMinimumError)
      throw new RuleViolationError(ErrorDetail.splitBelowSmallestQuantity(first.symbol));
    if (first)
      throw new OversellRejectedError(
        findOversells(candidate)
          .filter((violation) => violation instanceof OversellError)
          .map((violation) => ({ symbol: violation.symbol, ...at(violation.entryId) })),
      );
    if (TRADE_KINDS.includes(record.side) && !withinTradeLimits(record))
      throw new RuleViolationError(ErrorDetail.tradeOutsideLedgerLimits(record.quantity, record.symbol!));
    const shortfall = this.settings.strictCash ? findCashShortfall(candidate, existing) : null;
    if (shortfall) throw new InsufficientCashError(shortfall.side, at(shortfall.id));
    const ownSelections =
      record.side !== 'sell'
        ? []
        : lotSelections === undefined
          ? ((await this.locked.lotSelections()).get(id) ?? [])
          : lotSelections.map(({ lotId, quantity }) => ({ sellId: id, lotId, quantity }));
    const named = ownSelections.reduce((sum, selection) => sum + selection.quantity, 0);
    if (
      lotSelections === undefined &&
      ownSelections.length > 0 &&
      Math.abs(named - record.quantity) > QUANTITY_EPSILON
    )
      throw FieldProblems.invalid(['lots'], ErrorDetail.lotsMustSumToQuantity(record.quantity));
    const problems = await this.lotSelectionProblems(candidate, ownSelections, (sellId) => sellId !== id);
    const rejected = problems.filter((problem) => problem.sellId === id);
    if (rejected.length > 0 && lotSelections !== undefined)
      throw new LotSelectionRejectedError(
        rejected.map(({ sellId: _sellId, ...problem }) => ({ ...problem, appendedIndex: 0 })),
      );
    if (problems.length > 0)
      throw new ConflictError(
        ErrorDetail.transactionWouldBreakLotSelection(problems[0].sellId, problems[0].lotId),
      );
    await this.locked.replace(id, record, updatedAt);
    if (lotSelections !== undefined || record.side !== 'sell')
      await this.locked.replaceLotSelections(id, ownSelections);
    await this.locked.refreshRealizedPnl();
    const [shown] = await this.locked.findByIds([id]);
    return shown;
  }

  /** `transactions` with each sell's realized P&L by the user's cost-basis method (under `average`, as stored). */
  async withRealizedPnlByMethod(transactions: LedgerTransaction[]): Promise<LedgerTransaction[]> {
    const method = this.settings.costBasisMethod;
    if (method === 'average') return transactions;
    const { realizedPnlBySell } = replayByMethod(
      await this.entries(),
      { method, selections: await this.locked.lotSelections() },
      this.locked.replayed(),
    );
    return transactions.map((transaction) => withRealizedPnlOf(transaction, realizedPnlBySell));
  }

  /**
   * Inserts the records in order; a receiving leg naming a sending leg of the same append (by its
   * provisional id, see `provisionalId`) names its stored id. The sending legs come first.
   */
  private async insertLinked(records: PlacedLedgerTransaction[]): Promise<number[]> {
    const isLinked = (record: PlacedLedgerTransaction) => (record.transferOf ?? 0) >= PROVISIONAL_ID_BASE;
    const firstLinked = records.findIndex(isLinked);
    if (firstLinked < 0) return this.locked.insert(records);
    const head = await this.locked.insert(records.slice(0, firstLinked));
    const tail = records
      .slice(firstLinked)
      .map((record) =>
        isLinked(record) ? { ...record, transferOf: head[record.transferOf! - PROVISIONAL_ID_BASE] } : record,
      );
    return [...head, ...(await this.locked.insert(tail))];
  }

  /** The records, each in its account: the default account for those that name none. */
  private async inAccounts(records: NewLedgerTransaction[]): Promise<PlacedLedgerTransaction[]> {
    if (records.every((record) => record.accountId !== undefined))
      return records as PlacedLedgerTransaction[];
    const defaultId = await this.locked.defaultAccountId();
    return records.map((record) => ({ ...record, accountId: record.accountId ?? defaultId }));
  }

  /** The account a write goes to: the one named (404 when it is not the caller's), else the default. */
  async accountFor(requested: number | undefined): Promise<number> {
    if (requested === undefined) return this.locked.defaultAccountId();
    if (!(await this.locked.hasAccount(requested))) throw new NotFoundError(ErrorDetail.accountNotFound);
    return requested;
  }

  /**
   * Deletes an account. 404 for another user's; 409 for the default account, and for an account with
   * transactions unless `moveTo` names another account of the user to move them into (404 when it
   * is not one). Moving is refused (400) when the merged account would break the ledger's rules (a
   * split recorded in both, strict cash), as any change is; realized P&L is re-derived.
   */
  async deleteAccount(accountId: number, moveTo: number | undefined): Promise<void> {
    if (!(await this.locked.hasAccount(accountId))) throw new NotFoundError(ErrorDetail.accountNotFound);
    if (accountId === (await this.locked.defaultAccountId()))
      throw new ConflictError(ErrorDetail.defaultAccountCannotBeDeleted);
    const existing = await this.locked.entries();
    const held = existing.filter((entry) => entry.accountId === accountId).length;
    if (held === 0) return this.locked.deleteEmptyAccount(accountId);
    if (moveTo === undefined) throw new ConflictError(ErrorDetail.accountHasTransactions(held));
    if (moveTo === accountId) throw new ConflictError(ErrorDetail.accountCannotMoveToItself);
    if (!(await this.locked.hasAccount(moveTo))) throw new NotFoundError(ErrorDetail.accountNotFound);
    const merged = existing.map((entry) =>
      entry.accountId === accountId ? { ...entry, accountId: moveTo } : entry,
    );
    const violation = findOversell(merged);
    if (violation) throw new RuleViolationError(ErrorDetail.accountMoveWouldBreakLedger(violation.message));
    if (this.settings.strictCash && findCashShortfall(merged, existing))
      throw new RuleViolationError(
        ErrorDetail.accountMoveWouldBreakLedger('the cash balance would fall below zero'),
      );
    const [problem] = await this.lotSelectionProblems(merged, []);
    if (problem)
      throw new ConflictError(ErrorDetail.transactionWouldBreakLotSelection(problem.sellId, problem.lotId));
    await this.locked.mergeAccount(accountId, moveTo);
    await this.locked.refreshRealizedPnl();
  }

  /**
   * 404 for a missing id (or another user's); 400 when a later sell would exceed the quantity held
   * without it, a later dividend, split or position fee would have no position, a later split
   * would leave less than the smallest stored quantity, or, with the strict-cash
   * setting, the cash balance would fall below zero (and below where it stood) at any time.
   */
  async remove(id: number): Promise<void> {
    const existing = await this.locked.entries();
    const removed = existing.find((entry) => entry.id === id);
    if (!removed) throw new NotFoundError(ErrorDetail.transactionNotFound);
    // A transfer between accounts goes as a whole: its sending leg and every receiving leg.
    const sendingId = removed.transferOf ?? id;
    const group = new Set(
      existing
        .filter((entry) => entry.id === sendingId || entry.transferOf === sendingId)
        .map((entry) => entry.id),
    );
    const remaining = existing.filter((entry) => !group.has(entry.id));
    const violation = findOversell(remaining);
    if (violation instanceof UnheldPositionError)
      throw new RuleViolationError(
        ErrorDetail.transactionDeletionWouldLeaveNoPosition(violation.kind, violation.symbol),
      );
    if (violation instanceof SplitBelowMinimumError)
      throw new RuleViolationError(ErrorDetail.transactionDeletionWouldShrinkBelowSmallest(violation.symbol));
    if (violation)
      throw new RuleViolationError(ErrorDetail.transactionDeletionWouldOversell(violation.symbol));
    if (this.settings.strictCash && findCashShortfall(remaining, existing))
      throw new RuleViolationError(ErrorDetail.transactionDeletionWouldOverdraw);
    const [problem] = await this.lotSelectionProblems(remaining, [], (sellId) => !group.has(sellId));
    if (problem)
      throw new ConflictError(
        ErrorDetail.transactionDeletionWouldBreakLotSelection(problem.sellId, problem.lotId),
      );
    for (const member of [...group].reverse()) await this.locked.delete(member);
    await this.locked.refreshRealizedPnl();
  }

  /**
   * The selections `entries` cannot honour: the stored ones of the sells `keep` accepts, and
   * `added`. Every change is checked, so the stored ones held before this one.
   */
  private async lotSelectionProblems(
    entries: readonly LedgerEntry[],
    added: readonly LotSelection[],
    keep: (sellId: number) => boolean = () => true,
  ): Promise<LotSelectionProblem[]> {
    const stored = await this.locked.lotSelections();
    if (stored.size === 0 && added.length === 0) return [];
    const selections = new Map<number, LotSelection[]>();
    for (const [sellId, ofSell] of stored) if (keep(sellId)) selections.set(sellId, [...ofSell]);
    for (const selection of added) {
      const ofSell = selections.get(selection.sellId);
      if (ofSell) ofSell.push(selection);
      else selections.set(selection.sellId, [selection]);
    }
    return matchLots(entries, selections).problems;
  }
}
