import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { replayLedger } from './analytics/ledger-replay';
import { PortfolioTransactionEntity } from './entities/portfolio-transaction.entity';

export type NewTransactionRecord = Omit<PortfolioTransactionEntity, 'id' | 'realizedPnl'>;

export interface TransactionFilters {
  symbol?: string;
  from?: Date;
  to?: Date;
  skip: number;
  limit: number;
}

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

  /** Inserts the records in order and returns their ids in the same order. */
  async insert(records: NewTransactionRecord[]): Promise<number[]> {
    if (records.length === 0) return [];
    const result = await this.manager
      .createQueryBuilder()
      .insert()
      .into(PortfolioTransactionEntity)
      .values(records)
      .returning(['id'])
      .execute();
    return (result.raw as { id: number }[]).map((row) => row.id);
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
    for (const entry of entries) {
      const next = realizedPnlBySell.get(entry.id) ?? null;
      if (sameAmount(entry.realizedPnl, next)) continue;
      await this.manager.update(
        PortfolioTransactionEntity,
        { id: entry.id, userId: this.userId },
        { realizedPnl: next },
      );
    }
  }

  /** The user's rows with these ids, in the order of `ids`. */
  async findByIds(ids: number[]): Promise<PortfolioTransactionEntity[]> {
    if (ids.length === 0) return [];
    const rows = await this.manager
      .createQueryBuilder(PortfolioTransactionEntity, 't')
      .where('t.user_id = :userId AND t.id IN (:...ids)', { userId: this.userId, ids })
      .getMany();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id)!);
  }
}

/** Persistence of users' trade ledgers. Every read and write is scoped to one user. */
@Injectable()
export class PortfolioTransactionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Runs `work` in one database transaction holding the user's ledger lock, so that concurrent
   * requests of one user change the ledger one after another and every check sees the last state.
   */
  withLockedLedger<T>(userId: number, work: (ledger: LockedLedger) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [LEDGER_LOCK_NAMESPACE, userId]);
      return work(new LockedLedger(manager, userId));
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
