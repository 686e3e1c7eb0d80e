import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ErrorDetail } from '../../common/errors/error-details';
import { IdempotentRequest } from '../idempotency';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { replayLedger } from './analytics/ledger-replay';
import { PortfolioTransactionEntity } from './entities/portfolio-transaction.entity';
import { isStorableAmount, withinTradeLimits } from './ledger-limits';

export type NewTransactionRecord = Omit<PortfolioTransactionEntity, 'id' | 'realizedPnl'>;

export interface TransactionFilters {
  symbol?: string;
  from?: Date;
  to?: Date;
  skip: number;
  limit: number;
}

/** PostgreSQL takes at most 65,535 parameters per statement; 1,000 rows of 9 columns stay well below. */
const ROWS_PER_STATEMENT = 1000;

/** Namespace of the per-user advisory lock that serialises changes to one ledger. */
const LEDGER_LOCK_NAMESPACE = 7_310_001;

/** The ledger seen from inside one database transaction that holds the user's ledger lock. */
export class LockedLedger {
  constructor(
    private readonly manager: EntityManager,
    readonly userId: number,
  ) {}

  entries(): Promise<PortfolioTransactionEntity[]> {
    return this.manager.find(PortfolioTransactionEntity, {
      where: { userId: this.userId },
      order: { executedAt: 'ASC', id: 'ASC' },
    });
  }

  /**
   * Inserts the records in order and returns their ids in the same order. Request bodies are held
   * to the ledger limits at the edge; this also holds trades the service computed (a rebalance).
   */
  async insert(records: NewTransactionRecord[]): Promise<number[]> {
    const outside = records.find((record) => !withinTradeLimits(record));
    if (outside)
      throw new BadRequestException(ErrorDetail.tradeOutsideLedgerLimits(outside.quantity, outside.symbol));
    const ids: number[] = [];
    for (const chunk of chunks(records, ROWS_PER_STATEMENT)) {
      const result = await this.manager
        .createQueryBuilder()
        .insert()
        .into(PortfolioTransactionEntity)
        .values(chunk)
        .returning(['id'])
        .execute();
      ids.push(...(result.raw as { id: number }[]).map((row) => row.id));
    }
    return ids;
  }

  async delete(id: number): Promise<void> {
    await this.manager.delete(PortfolioTransactionEntity, { id, userId: this.userId });
  }

  /**
   * Recomputes the realized P&L of every sell and stores the ones that changed: adding or deleting
   * a trade changes the average cost of the sells after it.
   */
  async refreshRealizedPnl(): Promise<void> {
    const entries = await this.entries();
    const { realizedPnlBySell } = replayLedger(entries);
    const changed = entries
      .map((entry) => ({
        id: entry.id,
        symbol: entry.symbol,
        current: entry.realizedPnl,
        next: realizedPnlBySell.get(entry.id) ?? null,
      }))
      .filter(({ current, next }) => !sameAmount(current, next));
    if (changed.length === 0) return;
    const unstorable = changed.find(({ next }) => next !== null && !isStorableAmount(next));
    if (unstorable) throw new BadRequestException(ErrorDetail.realizedPnlOutOfRange(unstorable.symbol));
    // One statement whatever the number of sells: the new values travel as two arrays.
    await this.manager.query(
      `UPDATE portfolio_transactions AS t SET realized_pnl = v.realized_pnl
         FROM unnest($1::integer[], $2::numeric[]) AS v(id, realized_pnl)
        WHERE t.id = v.id AND t.user_id = $3`,
      [changed.map((change) => change.id), changed.map((change) => change.next), this.userId],
    );
  }

  /** The user's rows with these ids, in the order of `ids`. */
  async findByIds(ids: number[]): Promise<PortfolioTransactionEntity[]> {
    const byId = new Map<number, PortfolioTransactionEntity>();
    for (const chunk of chunks(ids, ROWS_PER_STATEMENT)) {
      const rows = await this.manager
        .createQueryBuilder(PortfolioTransactionEntity, 't')
        .where('t.user_id = :userId AND t.id IN (:...ids)', { userId: this.userId, ids: chunk })
        .getMany();
      for (const row of rows) byId.set(row.id, row);
    }
    return ids.map((id) => byId.get(id)!);
  }
}

/** Persistence of users' trade ledgers. Every read and write is scoped to one user. */
@Injectable()
export class PortfolioTransactionsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly idempotency: IdempotencyService,
  ) {}

  /**
   * Runs `work` in one database transaction holding the user's ledger lock, so that concurrent
   * requests of one user change the ledger one after another and every check sees the last state.
   * With an idempotent request, `work` runs at most once per key: its answer is stored in the same
   * transaction, and a request whose key is already stored gets that answer instead.
   */
  withLockedLedger<T>(
    userId: number,
    work: (ledger: LockedLedger) => Promise<T>,
    request?: IdempotentRequest,
  ): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [LEDGER_LOCK_NAMESPACE, userId]);
      if (!request) return work(new LockedLedger(manager, userId));
      const earlier = await this.idempotency.claim<T>(manager, userId, request);
      if (earlier !== null) return earlier;
      const answer = await work(new LockedLedger(manager, userId));
      await this.idempotency.keep(manager, userId, request, answer);
      return answer;
    });
  }

  /** The whole ledger in execution order. */
  entries(userId: number): Promise<PortfolioTransactionEntity[]> {
    return this.dataSource.manager.find(PortfolioTransactionEntity, {
      where: { userId },
      order: { executedAt: 'ASC', id: 'ASC' },
    });
  }

  /** A page of the ledger, newest first, with the number of matching rows. */
  list(userId: number, filters: TransactionFilters): Promise<[PortfolioTransactionEntity[], number]> {
    const query = this.dataSource.manager
      .createQueryBuilder(PortfolioTransactionEntity, 't')
      .where('t.user_id = :userId', { userId });
    if (filters.symbol) query.andWhere('t.symbol = :symbol', { symbol: filters.symbol });
    if (filters.from) query.andWhere('t.executed_at >= :from', { from: filters.from });
    if (filters.to) query.andWhere('t.executed_at <= :to', { to: filters.to });
    return query
      .orderBy('t.executed_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .skip(filters.skip)
      .take(filters.limit)
      .getManyAndCount();
  }
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
