import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

export const ACCOUNT_KINDS = ['taxable', 'ira', 'roth_ira', '401k', 'hsa', 'other'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** One of a user's accounts: a brokerage account, an IRA, a 401(k)… */
export interface PortfolioAccount {
  id: number;
  userId: number;
  name: string;
  kind: AccountKind;
  /** One of the preferences' brokerage platforms, or null. */
  brokerage: string | null;
  /** YYYY-MM-DD, or null. */
  openedOn: string | null;
  isDefault: boolean;
  createdAt: Date;
}

export interface AccountFields {
  name: string;
  kind: AccountKind;
  brokerage: string | null;
  openedOn: string | null;
}

interface AccountRow {
  id: number;
  user_id: number;
  name: string;
  kind: AccountKind;
  brokerage: string | null;
  opened_on: string | null;
  is_default: boolean;
  created_at: Date;
}

const COLUMNS = `id, user_id, name, kind, brokerage, opened_on::text AS opened_on, is_default, created_at`;

/** The name a user's first account gets when it is made for them. */
export const DEFAULT_ACCOUNT_NAME = 'Default';

/**
 * The id of the user's default account, made on first use: one small read once it exists (writes
 * run it holding the ledger lock, so it must stay short). Making it is one statement, and the partial
 * unique index lets only one default exist, so concurrent first uses agree on it.
 */
export async function defaultAccountId(manager: EntityManager, userId: number): Promise<number> {
  const [existing] = (await manager.query(
    `SELECT id FROM portfolio_accounts WHERE user_id = $1 AND is_default`,
    [userId],
  )) as { id: number }[];
  if (existing) return existing.id;
  const [made] = (await manager.query(
    `WITH made AS (
       INSERT INTO portfolio_accounts (user_id, name, kind, is_default) VALUES ($1, $2, 'taxable', true)
       ON CONFLICT (user_id) WHERE is_default DO NOTHING
       RETURNING id)
     SELECT id FROM made
     UNION ALL
     SELECT id FROM portfolio_accounts WHERE user_id = $1 AND is_default
     LIMIT 1`,
    [userId, DEFAULT_ACCOUNT_NAME],
  )) as { id: number }[];
  if (made) return made.id;
  // Another transaction made it while this statement ran: its row is visible to the next one.
  const [theirs] = (await manager.query(
    `SELECT id FROM portfolio_accounts WHERE user_id = $1 AND is_default`,
    [userId],
  )) as { id: number }[];
  return theirs.id;
}

/** The user's account with this id, or null (another user's is null too). */
export async function findAccount(
  manager: EntityManager,
  userId: number,
  id: number,
): Promise<PortfolioAccount | null> {
  const [row] = (await manager.query(
    `SELECT ${COLUMNS} FROM portfolio_accounts WHERE id = $1 AND user_id = $2`,
    [id, userId],
  )) as AccountRow[];
  return row ? toAccount(row) : null;
}

/** Persistence of users' accounts. */
@Injectable()
export class PortfolioAccountsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly host: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  /** Every account of the user, the default first, then in creation order; the default is made if missing. */
  async list(userId: number): Promise<PortfolioAccount[]> {
    await defaultAccountId(this.dataSource.manager, userId);
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM portfolio_accounts WHERE user_id = $1 ORDER BY is_default DESC, id`,
      [userId],
    )) as AccountRow[];
    return rows.map(toAccount);
  }

  /** Joins the caller's transaction when there is one (an idempotent write's reads the account in it). */
  find(userId: number, id: number): Promise<PortfolioAccount | null> {
    return findAccount(this.host.tx, userId, id);
  }

  /** The id of the user's default account (made on first use). */
  defaultId(userId: number): Promise<number> {
    return defaultAccountId(this.dataSource.manager, userId);
  }

  /** Null when the user already has an account of that name (any case). */
  async create(userId: number, fields: AccountFields): Promise<PortfolioAccount | null> {
    await defaultAccountId(this.dataSource.manager, userId);
    const rows = (await this.dataSource.query(
      `INSERT INTO portfolio_accounts (user_id, name, kind, brokerage, opened_on)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, lower(name)) DO NOTHING
       RETURNING ${COLUMNS}`,
      [userId, fields.name, fields.kind, fields.brokerage, fields.openedOn],
    )) as AccountRow[];
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /**
   * Applies the given fields; `makeDefault` moves the default flag here, in one transaction.
   * 'missing' for another user's or an unknown id, 'name_taken' when another account has the name.
   */
  update(
    userId: number,
    id: number,
    changes: Partial<AccountFields>,
    makeDefault: boolean,
  ): Promise<PortfolioAccount | 'missing' | 'name_taken'> {
    return this.dataSource.transaction(async (manager) => {
      const current = await findAccount(manager, userId, id);
      if (!current) return 'missing';
      if (changes.name !== undefined) {
        const [taken] = (await manager.query(
          `SELECT 1 FROM portfolio_accounts WHERE user_id = $1 AND lower(name) = lower($2) AND id <> $3`,
          [userId, changes.name, id],
        )) as unknown[];
        if (taken) return 'name_taken';
      }
      if (makeDefault && !current.isDefault) {
        await manager.query(
          `UPDATE portfolio_accounts SET is_default = false WHERE user_id = $1 AND is_default`,
          [userId],
        );
        await manager.query(`UPDATE portfolio_accounts SET is_default = true WHERE id = $1`, [id]);
      }
      // TypeORM answers an UPDATE with [rows, affected].
      const [rows] = (await manager.query(
        `UPDATE portfolio_accounts
            SET name = $3, kind = $4, brokerage = $5, opened_on = $6
          WHERE id = $1 AND user_id = $2
          RETURNING ${COLUMNS}`,
        [
          id,
          userId,
          changes.name ?? current.name,
          changes.kind ?? current.kind,
          changes.brokerage === undefined ? current.brokerage : changes.brokerage,
          changes.openedOn === undefined ? current.openedOn : changes.openedOn,
        ],
      )) as [AccountRow[], number];
      return toAccount(rows[0]);
    });
  }

  /** How many transactions each of the user's accounts holds. */
  async transactionCounts(userId: number): Promise<Map<number, number>> {
    const rows = (await this.dataSource.query(
      `SELECT account_id, count(*)::int AS count FROM portfolio_transactions WHERE user_id = $1 GROUP BY account_id`,
      [userId],
    )) as { account_id: number; count: number }[];
    return new Map(rows.map((row) => [row.account_id, row.count]));
  }
}

/** Removes an account that holds no transactions (inside the caller's ledger transaction). */
export async function deleteAccount(manager: EntityManager, userId: number, id: number): Promise<void> {
  await manager.query(`DELETE FROM portfolio_accounts WHERE id = $1 AND user_id = $2`, [id, userId]);
}

function toAccount(row: AccountRow): PortfolioAccount {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    kind: row.kind,
    brokerage: row.brokerage,
    openedOn: row.opened_on,
    isDefault: row.is_default,
    createdAt: new Date(row.created_at),
  };
}
