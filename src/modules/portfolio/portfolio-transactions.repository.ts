import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { CountedLru } from '../../common/metrics/cache-counters';
import { DataSource, EntityManager } from 'typeorm';
import { RuleViolationError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import {
  appendedEntries,
  checkedReplay,
  compareLedgerEntries,
  isHoldingEntry,
  ReplayCheckpoint,
  replayCheckpoint,
  sameReplay,
} from './analytics/ledger-replay';
import { LotSelection } from './analytics/tax-lots';
import { PortfolioTransactionEntity } from './entities/portfolio-transaction.entity';
import { isStorableAmount } from './ledger-limits';
import { LedgerTransaction, PlacedLedgerTransaction } from './ledger-transaction';
import { defaultAccountId, deleteAccount, findAccount } from './portfolio-accounts.repository';
import { nullable, quantity as toLedgerScale } from './portfolio-rounding';

/**
 * A bound of a listing: a date compares with the entries' exchange dates (`tradeDate`), an instant
 * with their `executedAt`. Both bounds are inclusive.
 */
export type ListingBound = { date: string } | { instant: Date };

export interface TransactionFilters {
  symbol?: string;
  accountId?: number;
  from?: ListingBound;
  to?: ListingBound;
  skip: number;
  limit: number;
}

/**
 * Rows one insert or read by id handles: each column (or the ids) travels as one array parameter,
 * so the bound is how long one statement may take, not PostgreSQL's 65,535 parameters.
 */
const ROWS_PER_STATEMENT = 5000;

// The rows in the order given (WITH ORDINALITY), so that the sequence numbers them in that order.
const INSERT_SQL = `
  INSERT INTO portfolio_transactions (user_id, account_id, symbol, side, quantity, price, fees,
              executed_at, trade_date, amount, withholding_tax, split_to, split_from, acquired_on,
              transfer_of, note, realized_pnl, created_at, updated_at)
  SELECT r.user_id, r.account_id, r.symbol, r.side, r.quantity, r.price, r.fees, r.executed_at,
         r.trade_date, r.amount, r.withholding_tax, r.split_to, r.split_from, r.acquired_on,
         r.transfer_of, r.note, NULL, r.created_at, NULL
    FROM unnest($1::integer[], $2::integer[], $3::varchar[], $4::varchar[], $5::numeric[],
                $6::numeric[], $7::numeric[], $8::timestamptz[], $9::date[], $10::numeric[],
                $11::numeric[], $12::integer[], $13::integer[], $14::date[], $15::integer[],
                $16::varchar[], $17::timestamptz[])
         WITH ORDINALITY AS r(user_id, account_id, symbol, side, quantity, price, fees, executed_at,
                              trade_date, amount, withholding_tax, split_to, split_from, acquired_on,
                              transfer_of, note, created_at, position)
   ORDER BY r.position
  RETURNING id`;

/** Namespace of the per-user advisory lock that serialises changes to one ledger. */
const LEDGER_LOCK_NAMESPACE = 7_310_001;

/** Ledger rows kept in memory across users (about 200 bytes each): the busiest ledgers stay. */
export const CACHED_LEDGER_ROWS = 200_000;

/**
 * A stored ledger row; the ledger is shared by every reader of its version, so each row is frozen.
 * The ledger's arrays are read-only by type alone: V8 reads the elements of a frozen array several
 * times slower, and a write compares a 100,000-entry ledger with the version before it.
 */
export type StoredTransaction = Readonly<LedgerTransaction>;

/** A user's whole ledger in execution order, as of one ledger version: the `portfolio-ledgers` cache's entry. */
export interface LedgerVersion {
  version: number;
  entries: readonly StoredTransaction[];
  /**
   * Whether every sell's stored realized P&L is the one its replay gives: true for a version this
   * process wrote after refreshing them; one read from the database may hold what an older release
   * stored.
   */
  realizedPnlCurrent?: boolean;
  /**
   * The average-cost replay of `entries` (replayOfVersion), kept with the version it belongs to and
   * bounded with it: the write that made the version leaves its own, and the next change carries
   * on from it over the trades it appends.
   */
  replayed?: ReplayCheckpoint;
}

/** The average-cost replay of a ledger version: computed once per version, and kept with it. */
export function replayOfVersion(stored: LedgerVersion): ReplayCheckpoint {
  stored.replayed ??= replayCheckpoint(stored.entries);
  return stored.replayed;
}

interface LedgerRow {
  version: string | null;
  id: number | null;
  account_id: number;
  symbol: string | null;
  side: LedgerTransaction['side'];
  quantity: string;
  price: string;
  fees: string;
  amount: string | null;
  withholding_tax: string | null;
  split_to: number | null;
  split_from: number | null;
  acquired_on: string | null;
  transfer_of: number | null;
  /** Epoch milliseconds: pg parses a number far faster than a timestamp (100,000 rows: about 1.5 s less). */
  executed_at_ms: string;
  /** As text: pg would parse a date into a local-time Date. */
  trade_date: string;
  note: string | null;
  realized_pnl: string | null;
  created_at_ms: string;
  updated_at_ms: string | null;
}

const LEDGER_VERSION_SQL = `SELECT version FROM portfolio_ledger_versions WHERE user_id = $1`;
/** A ledger row's columns as LedgerRow reads them (from `portfolio_transactions AS t`). */
const LEDGER_COLUMNS = `
  t.id, t.account_id, t.symbol, t.side, t.quantity, t.price, t.fees,
  t.amount, t.withholding_tax, t.split_to, t.split_from, t.acquired_on::text AS acquired_on, t.transfer_of,
  floor(extract(epoch FROM t.executed_at) * 1000)::bigint AS executed_at_ms,
  t.trade_date::text AS trade_date, t.note, t.realized_pnl,
  floor(extract(epoch FROM t.created_at) * 1000)::bigint AS created_at_ms,
  floor(extract(epoch FROM t.updated_at) * 1000)::bigint AS updated_at_ms`;
// The version and the rows in one statement, so that they come from one snapshot of the database.
const LEDGER_SQL = `
  SELECT v.version, ${LEDGER_COLUMNS}
    FROM (SELECT max(version) AS version FROM portfolio_ledger_versions WHERE user_id = $1) AS v
    LEFT JOIN portfolio_transactions AS t ON t.user_id = $1
   ORDER BY t.executed_at, t.id`;
const ROWS_BY_ID_SQL = `
  SELECT NULL AS version, ${LEDGER_COLUMNS}
    FROM portfolio_transactions AS t
   WHERE t.user_id = $1 AND t.id = ANY($2::integer[])`;

// The selections of the user's sells, each sell's in lot order.
const LOT_SELECTIONS_SQL = `
  SELECT s.sell_id, s.lot_id, s.quantity
    FROM portfolio_lot_selections AS s
    JOIN portfolio_transactions AS t ON t.id = s.sell_id
   WHERE t.user_id = $1
   ORDER BY s.sell_id, s.lot_id`;

/** The lot selections of a user's sells, by sell id. */
export type LotSelectionsBySell = ReadonlyMap<number, readonly LotSelection[]>;

/** The ledger seen from inside one database transaction that holds the user's ledger lock. */
export class LockedLedger {
  /** Whether this transaction wrote to the ledger, and so must bump its version. */
  changed = false;
  /** The ledger as this transaction has made it: read once, then kept in step with its own writes. */
  private current: readonly StoredTransaction[] | undefined;
  /** Whether every sell of `current` has its current realized P&L stored (see LedgerVersion). */
  private realizedPnlCurrent = false;
  /** The state `current` was made from by appending trades. */
  private appendedTo: readonly StoredTransaction[] | undefined;
  /** Whether every sell of `appendedTo` had its current realized P&L stored. */
  private appendedToRealizedPnlCurrent = false;
  /** Those appended trades: the only ones whose realized P&L an append can change. */
  private appended: readonly StoredTransaction[] | undefined;
  /**
   * The replay of `current`, or of a state it was made from by appending trades: what a replay of
   * a later state carries on from.
   */
  private replayedSoFar: ReplayCheckpoint | undefined;

  /** What this transaction holds of the ledger, without reading it: undefined until first read. */
  get view(): readonly StoredTransaction[] | undefined {
    return this.current;
  }

  /**
   * The replay of the ledger as this transaction holds it, or of a state it appended to: a replay
   * of what it will hold carries on from it (see replayLedger). The one kept with the cached
   * version, or made once from the entries read; undefined before they are read, or when the
   * stored ledger itself is impossible (a full replay of what holds it then says where).
   */
  replayed(): ReplayCheckpoint | undefined {
    if (this.current && !this.replayedSoFar) {
      const replayed = checkedReplay(this.current);
      if ('replay' in replayed) this.replayedSoFar = replayed;
    }
    return this.replayedSoFar;
  }

  constructor(
    /** The database transaction holding the lock. */
    private readonly manager: EntityManager,
    readonly userId: number,
    private readonly cachedVersion: (version: number) => LedgerVersion | undefined,
  ) {}

  /**
   * The ledger in execution order. Until this transaction writes, the lock guarantees the stored
   * version is the last one, so a ledger already in memory at that version is reused: a write to
   * a 100,000-row ledger then reads one small row instead of all of them.
   */
  async entries(): Promise<readonly StoredTransaction[]> {
    if (this.current) return this.current;
    if (!this.changed) {
      const [row] = (await this.manager.query(LEDGER_VERSION_SQL, [this.userId])) as { version: string }[];
      const cached = this.cachedVersion(Number(row?.version ?? 0));
      if (cached) {
        this.current = cached.entries;
        this.realizedPnlCurrent = cached.realizedPnlCurrent === true;
        this.replayedSoFar = cached.replayed;
        return this.current;
      }
    }
    const rows = (await this.manager.query(LEDGER_SQL, [this.userId])) as LedgerRow[];
    this.current = storedTransactions(this.userId, rows);
    this.realizedPnlCurrent = false;
    return this.current;
  }

  /** This transaction's ledger as the version it is about to commit as `version`. */
  asVersion(version: number): LedgerVersion | undefined {
    if (!this.current) return undefined;
    const replayed = this.replayedSoFar?.entries === this.current ? this.replayedSoFar : undefined;
    return { version, entries: this.current, realizedPnlCurrent: this.realizedPnlCurrent, replayed };
  }

  /** Inserts the records in order and returns their ids in the same order. */
  async insert(records: PlacedLedgerTransaction[]): Promise<number[]> {
    const ids: number[] = [];
    this.changed ||= records.length > 0;
    // With the 8 decimals the columns keep, so this view holds what the database does.
    const stored = records.map((record) => ({
      userId: record.userId,
      ...editableFields(record),
      transferOf: record.transferOf ?? null,
      realizedPnl: null,
      createdAt: record.createdAt,
      updatedAt: null,
    }));
    for (const chunk of chunks(stored, ROWS_PER_STATEMENT)) {
      const rows = (await this.manager.query(INSERT_SQL, insertParameters(chunk))) as { id: number }[];
      // The ids come from the sequence in the order the rows were inserted: ascending is their order.
      ids.push(...rows.map((row) => row.id).sort((a, b) => a - b));
    }
    if (this.current) {
      const inserted = stored
        .map((record, index) => Object.freeze({ id: ids[index], ...record }))
        .sort(compareLedgerEntries);
      if (!this.appendedTo) this.appendedToRealizedPnlCurrent = this.realizedPnlCurrent;
      const base = this.appendedTo ?? this.current;
      const appendedBefore = base === this.current ? [] : this.appended;
      const last = this.current.at(-1);
      // The usual write comes after the whole ledger, which is then only added to, not sorted again,
      // and its trades are the ones appended: no pass over the ledger looks for them.
      const after = !last || inserted.length === 0 || compareLedgerEntries(last, inserted[0]) < 0;
      const next = [...this.current, ...inserted];
      this.current = after ? next : next.sort(compareLedgerEntries);
      this.appendedTo = base;
      if (after && appendedBefore) this.appended = [...appendedBefore, ...inserted];
      else {
        const baseLast = this.replayedSoFar?.entries === base ? this.replayedSoFar.last : undefined;
        this.appended = appendedEntries(this.current, base, baseLast) ?? undefined;
      }
      this.realizedPnlCurrent &&= inserted.length === 0;
    }
    return ids;
  }

  /** The stored lot selections of the user's sells, including what this transaction has written. */
  lotSelections(): Promise<LotSelectionsBySell> {
    return readLotSelections(this.manager, this.userId);
  }

  /** Stores selections of sells this transaction has inserted. */
  async insertLotSelections(selections: readonly LotSelection[]): Promise<void> {
    if (selections.length === 0) return;
    this.changed = true;
    await this.manager.query(
      `INSERT INTO portfolio_lot_selections (sell_id, lot_id, quantity)
       SELECT * FROM unnest($1::integer[], $2::integer[], $3::numeric[])`,
      [
        selections.map((selection) => selection.sellId),
        selections.map((selection) => selection.lotId),
        selections.map((selection) => toLedgerScale(selection.quantity)),
      ],
    );
  }

  /**
   * Replaces the stored transaction `id` with `record` (keeping its id and creation time), stamps
   * `updatedAt`, and keeps the values it replaced in the history table.
   */
  async replace(id: number, record: PlacedLedgerTransaction, updatedAt: Date): Promise<void> {
    const entries = await this.entries();
    const previous = entries.find((entry) => entry.id === id)!;
    this.changed = true;
    await this.manager.query(
      `INSERT INTO portfolio_transaction_history (transaction_id, user_id, previous, replaced_at)
       VALUES ($1, $2, $3, $4)`,
      [id, this.userId, JSON.stringify(auditedValues(previous)), updatedAt],
    );
    const stored = Object.freeze({
      id,
      userId: this.userId,
      ...editableFields(record),
      transferOf: previous.transferOf ?? null,
      realizedPnl: previous.realizedPnl,
      createdAt: previous.createdAt,
      updatedAt,
    });
    await this.manager.update(
      PortfolioTransactionEntity,
      { id, userId: this.userId },
      { ...editableFields(record), updatedAt },
    );
    this.current = entries.map((entry) => (entry.id === id ? stored : entry)).sort(compareLedgerEntries);
    this.realizedPnlCurrent = false;
    this.appendedTo = undefined;
    this.appended = undefined;
  }

  /** Replaces the lots the sell `sellId` names (none: it names none). */
  async replaceLotSelections(sellId: number, selections: readonly LotSelection[]): Promise<void> {
    this.changed = true;
    await this.manager.query(`DELETE FROM portfolio_lot_selections WHERE sell_id = $1`, [sellId]);
    await this.insertLotSelections(selections);
  }

  /** The user's default account (made on first use). */
  defaultAccountId(): Promise<number> {
    return defaultAccountId(this.manager, this.userId);
  }

  /** Whether the account is the user's; read under the ledger lock, which account deletions take too. */
  async hasAccount(accountId: number): Promise<boolean> {
    return (await findAccount(this.manager, this.userId, accountId)) !== null;
  }

  /** Moves every transaction of account `from` into `to`, then deletes `from`. */
  async mergeAccount(from: number, to: number): Promise<void> {
    const entries = await this.entries();
    this.changed = true;
    await this.manager.query(
      `UPDATE portfolio_transactions SET account_id = $2 WHERE account_id = $1 AND user_id = $3`,
      [from, to, this.userId],
    );
    await deleteAccount(this.manager, this.userId, from);
    this.current = entries.map((entry) =>
      entry.accountId === from ? Object.freeze({ ...entry, accountId: to }) : entry,
    );
    this.realizedPnlCurrent = false;
    this.appendedTo = undefined;
    this.appended = undefined;
  }

  /**
   * Deletes an account that holds no transactions. The ledger's version moves on too: reads hold
   * an account's entries per version as proof that the account exists (HoldingsService).
   */
  async deleteEmptyAccount(accountId: number): Promise<void> {
    this.changed = true;
    await deleteAccount(this.manager, this.userId, accountId);
  }

  async delete(id: number): Promise<void> {
    this.changed = true;
    await this.manager.delete(PortfolioTransactionEntity, { id, userId: this.userId });
    this.current = this.current?.filter((entry) => entry.id !== id);
    this.realizedPnlCurrent = false;
    this.appendedTo = undefined;
    this.appended = undefined;
  }

  /**
   * Recomputes the realized P&L of the sells and stores the ones that changed: adding or deleting
   * a trade changes the average cost of the sells after it. When this transaction only appended
   * trades after a ledger whose stored figures were all current, only theirs can have changed, and
   * only they are compared; a ledger read from the database is compared whole on its first change.
   */
  async refreshRealizedPnl(): Promise<void> {
    const entries = await this.entries();
    const replayed = replayCheckpoint(entries, this.replayed());
    const { realizedPnlBySell } = replayed.replay;
    const compared = this.appended && this.appendedToRealizedPnlCurrent ? this.appended : entries;
    const changed: { id: number; symbol: string; next: number | null }[] = [];
    for (const entry of compared) {
      if (!isHoldingEntry(entry)) continue;
      const next = realizedPnlBySell.get(entry.id) ?? null;
      if (!sameAmount(entry.realizedPnl, next)) changed.push({ id: entry.id, symbol: entry.symbol, next });
    }
    this.appendedTo = undefined;
    this.appended = undefined;
    this.replayedSoFar = replayed;
    this.realizedPnlCurrent = true;
    if (changed.length === 0) return;
    const unstorable = changed.find(({ next }) => next !== null && !isStorableAmount(next));
    if (unstorable) throw new RuleViolationError(ErrorDetail.realizedPnlOutOfRange(unstorable.symbol));
    this.changed = true;
    // One statement whatever the number of sells: the new values travel as two arrays.
    await this.manager.query(
      `UPDATE portfolio_transactions AS t SET realized_pnl = v.realized_pnl
         FROM unnest($1::integer[], $2::numeric[]) AS v(id, realized_pnl)
        WHERE t.id = v.id AND t.user_id = $3`,
      [changed.map((change) => change.id), changed.map((change) => change.next), this.userId],
    );
    const refreshed = new Map(changed.map((change) => [change.id, change.next]));
    this.current = entries.map((entry) =>
      refreshed.has(entry.id)
        ? Object.freeze({ ...entry, realizedPnl: nullable(refreshed.get(entry.id) ?? null, toLedgerScale) })
        : entry,
    );
    this.replayedSoFar = sameReplay(replayed, this.current);
  }

  /** The user's rows with these ids, in the order of `ids`. */
  async findByIds(ids: number[]): Promise<LedgerTransaction[]> {
    const byId = new Map<number, LedgerTransaction>();
    for (const chunk of chunks(ids, ROWS_PER_STATEMENT)) {
      const rows = (await this.manager.query(ROWS_BY_ID_SQL, [this.userId, chunk])) as LedgerRow[];
      for (const row of rows) byId.set(row.id!, toStoredTransaction(this.userId, row));
    }
    return ids.map((id) => byId.get(id)!);
  }
}

/** Persistence of users' trade ledgers. Every read and write is scoped to one user. */
@Injectable()
export class PortfolioTransactionsRepository {
  /** The last ledger read per user, reused while its version is the current one. */
  private readonly ledgers = new CountedLru<number, LedgerVersion>('portfolio-ledgers', {
    maxSize: CACHED_LEDGER_ROWS,
    sizeCalculation: (ledger) => Math.max(1, ledger.entries.length),
  });

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly host: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  /**
   * Runs `work` in one database transaction holding the user's ledger lock, so that concurrent
   * requests of one user change the ledger one after another and every check sees the last state.
   * The transaction is the unit of work of the context (see docs/architecture.md): it joins the
   * caller's when there is one (an idempotent route's, which stores its answer in it), and
   * repositories called from `work` join it, so rows kept beside the ledger's are written in it too.
   */
  async withLockedLedger<T>(userId: number, work: (ledger: LockedLedger) => Promise<T>): Promise<T> {
    // Joining the caller's transaction, the change commits only when that one does, and may still
    // roll back after `work`: the version written is then not kept in memory.
    const ownTransaction = !this.host.isTransactionActive();
    let written: LedgerVersion | undefined;
    const answer = await this.host.withTransaction(async () => {
      const manager = this.host.tx;
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [LEDGER_LOCK_NAMESPACE, userId]);
      const ledger = new LockedLedger(manager, userId, (version) => {
        const cached = this.ledgers.get(userId);
        return cached?.version === version ? cached : undefined;
      });
      const result = await work(ledger);
      if (ledger.changed) {
        const [{ version }] = (await manager.query(
          `INSERT INTO portfolio_ledger_versions (user_id, version) VALUES ($1, 1)
           ON CONFLICT (user_id) DO UPDATE SET version = portfolio_ledger_versions.version + 1
           RETURNING version`,
          [userId],
        )) as { version: string }[];
        if (ownTransaction) written = ledger.asVersion(Number(version));
      }
      return result;
    });
    // Once committed, the next read of this version needs no rows; a later version read meanwhile
    // is not replaced by an older one.
    if (written && (this.ledgers.get(userId)?.version ?? -1) < written.version)
      this.ledgers.set(userId, written);
    return answer;
  }

  /**
   * The whole ledger in execution order. One small query asks for the current version; the rows
   * are read (without entity hydration) only when the version is not the one held in memory.
   */
  async ledger(userId: number): Promise<LedgerVersion> {
    // Inside a unit of work (an idempotent write's), on its connection: it cannot wait for a second
    // one from a pool the transaction holds. What it reads there may not commit, so is not kept.
    const manager = this.host.tx;
    const cached = this.ledgers.get(userId);
    if (cached) {
      const [row] = (await manager.query(LEDGER_VERSION_SQL, [userId])) as { version: string }[];
      if (Number(row?.version ?? 0) === cached.version) return cached;
    }
    const rows = (await manager.query(LEDGER_SQL, [userId])) as LedgerRow[];
    const entries = storedTransactions(userId, rows);
    const ledger: LedgerVersion = { version: Number(rows[0]?.version ?? 0), entries };
    if (!this.host.isTransactionActive()) this.ledgers.set(userId, ledger);
    return ledger;
  }

  /** Of these users, the ones whose ledger holds any entry (one index probe each). */
  async usersWithEntries(userIds: readonly number[]): Promise<Set<number>> {
    const rows = (await this.dataSource.query(
      `SELECT u.id FROM unnest($1::int[]) AS u (id)
       WHERE EXISTS (SELECT 1 FROM portfolio_transactions t WHERE t.user_id = u.id)`,
      [userIds],
    )) as { id: number }[];
    return new Set(rows.map((row) => row.id));
  }

  /** The edits of the user's transaction `id`, oldest first (empty for another user's). */
  async revisions(userId: number, id: number): Promise<TransactionRevision[]> {
    const rows = (await this.dataSource.query(
      `SELECT previous, replaced_at FROM portfolio_transaction_history
        WHERE transaction_id = $1 AND user_id = $2 ORDER BY id`,
      [id, userId],
    )) as { previous: Record<string, unknown>; replaced_at: Date }[];
    return rows.map((row) => ({ previous: row.previous, replacedAt: new Date(row.replaced_at) }));
  }

  /** The lot selections of the user's sells (read apart from the ledger: a sell not in it is ignored). */
  lotSelections(userId: number): Promise<LotSelectionsBySell> {
    return readLotSelections(this.host.tx, userId);
  }

  /** A page of the ledger, newest first, with the number of matching rows. */
  async list(userId: number, filters: TransactionFilters): Promise<[StoredTransaction[], number]> {
    const { entries } = await this.ledger(userId);
    if (!filters.symbol && !filters.from && !filters.to && filters.accountId === undefined) {
      const end = Math.max(0, entries.length - filters.skip);
      const page = entries.slice(Math.max(0, end - filters.limit), end).reverse();
      return [page, entries.length];
    }
    const { from, to } = filters;
    const page: StoredTransaction[] = [];
    let total = 0;
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const entry = entries[index];
      if (
        (filters.symbol && entry.symbol !== filters.symbol) ||
        (filters.accountId !== undefined && entry.accountId !== filters.accountId) ||
        (from && compareWithBound(entry, from) < 0) ||
        (to && compareWithBound(entry, to) > 0)
      )
        continue;
      if (total >= filters.skip && page.length < filters.limit) page.push(entry);
      total += 1;
    }
    return [page, total];
  }
}

/** Negative when the entry comes before the bound, 0 on it, positive after it. */
function compareWithBound(entry: StoredTransaction, bound: ListingBound): number {
  if ('date' in bound) return entry.tradeDate.localeCompare(bound.date);
  return entry.executedAt.getTime() - bound.instant.getTime();
}

/** LEDGER_SQL's rows as frozen transactions (an empty ledger is one row of its version alone). */
function storedTransactions(userId: number, rows: readonly LedgerRow[]): StoredTransaction[] {
  return rows.filter((row) => row.id !== null).map((row) => Object.freeze(toStoredTransaction(userId, row)));
}

function toStoredTransaction(userId: number, row: LedgerRow): LedgerTransaction {
  return {
    id: row.id!,
    userId,
    accountId: row.account_id,
    symbol: row.symbol,
    side: row.side,
    quantity: Number(row.quantity),
    price: Number(row.price),
    fees: Number(row.fees),
    executedAt: new Date(Number(row.executed_at_ms)),
    tradeDate: row.trade_date,
    amount: row.amount === null ? null : Number(row.amount),
    withholdingTax: row.withholding_tax === null ? null : Number(row.withholding_tax),
    splitTo: row.split_to,
    splitFrom: row.split_from,
    acquiredOn: row.acquired_on,
    transferOf: row.transfer_of,
    note: row.note,
    realizedPnl: row.realized_pnl === null ? null : Number(row.realized_pnl),
    createdAt: new Date(Number(row.created_at_ms)),
    updatedAt: row.updated_at_ms === null ? null : new Date(Number(row.updated_at_ms)),
  };
}

async function readLotSelections(manager: EntityManager, userId: number): Promise<LotSelectionsBySell> {
  const rows = (await manager.query(LOT_SELECTIONS_SQL, [userId])) as {
    sell_id: number;
    lot_id: number;
    quantity: string;
  }[];
  const bySell = new Map<number, LotSelection[]>();
  for (const row of rows) {
    const selection = { sellId: row.sell_id, lotId: row.lot_id, quantity: Number(row.quantity) };
    const ofSell = bySell.get(row.sell_id);
    if (ofSell) ofSell.push(selection);
    else bySell.set(row.sell_id, [selection]);
  }
  return bySell;
}

/** The values of a transaction an edit replaces, as kept in its history (snake case, like the API). */
function auditedValues(entry: StoredTransaction): Record<string, unknown> {
  return {
    account_id: entry.accountId,
    symbol: entry.symbol,
    side: entry.side,
    quantity: entry.quantity,
    price: entry.price,
    fees: entry.fees,
    amount: entry.amount ?? null,
    withholding_tax: entry.withholdingTax ?? null,
    split_to: entry.splitTo ?? null,
    split_from: entry.splitFrom ?? null,
    acquired_on: entry.acquiredOn ?? null,
    executed_at: entry.executedAt.toISOString(),
    trade_date: entry.tradeDate,
    note: entry.note,
    realized_pnl: entry.realizedPnl,
    updated_at: entry.updatedAt?.toISOString() ?? null,
  };
}

/** One edit of a transaction: the values it replaced and when. */
export interface TransactionRevision {
  previous: Record<string, unknown>;
  replacedAt: Date;
}

/** Stored with 8 decimals: a difference below that is no change. */
function sameAmount(stored: number | null, computed: number | null): boolean {
  if (stored === null || computed === null) return stored === computed;
  return Math.abs(stored - computed) < 5e-9;
}

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** INSERT_SQL's parameters: one array per column. Instants travel as ISO text, exact to the millisecond. */
function insertParameters(rows: readonly (ReturnType<typeof editableFields> & InsertedBookkeeping)[]) {
  const column = <T>(value: (row: (typeof rows)[number]) => T) => rows.map(value);
  return [
    column((row) => row.userId),
    column((row) => row.accountId),
    column((row) => row.symbol),
    column((row) => row.side),
    column((row) => row.quantity),
    column((row) => row.price),
    column((row) => row.fees),
    column((row) => row.executedAt.toISOString()),
    column((row) => row.tradeDate),
    column((row) => row.amount),
    column((row) => row.withholdingTax),
    column((row) => row.splitTo),
    column((row) => row.splitFrom),
    column((row) => row.acquiredOn),
    column((row) => row.transferOf),
    column((row) => row.note),
    column((row) => row.createdAt.toISOString()),
  ];
}

/** What an inserted row holds beside its editable fields. */
interface InsertedBookkeeping {
  userId: number;
  transferOf: number | null;
  createdAt: Date;
}

/** The columns a record sets and an edit may change, with the 8 decimals the columns keep. */
function editableFields(record: PlacedLedgerTransaction) {
  return {
    accountId: record.accountId,
    symbol: record.symbol,
    side: record.side,
    quantity: toLedgerScale(record.quantity),
    price: toLedgerScale(record.price),
    fees: toLedgerScale(record.fees),
    executedAt: record.executedAt,
    tradeDate: record.tradeDate,
    amount: nullable(record.amount ?? null, toLedgerScale),
    withholdingTax: nullable(record.withholdingTax ?? null, toLedgerScale),
    splitTo: record.splitTo ?? null,
    splitFrom: record.splitFrom ?? null,
    acquiredOn: record.acquiredOn ?? null,
    note: record.note,
  };
}
