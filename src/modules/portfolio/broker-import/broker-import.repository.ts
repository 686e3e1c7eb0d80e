import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';

/** A preview as stored until committed: what to record, and the answer the dry run gave. */
export interface StoredPreview<E, A> {
  entries: E;
  answer: A;
  expiresAt: Date;
}

/** Keys per statement: 2 parameters each, well inside PostgreSQL's 65,535. */
const KEYS_PER_STATEMENT = 10_000;

/**
 * The import keys of recorded broker transactions and the previews waiting for their commit; each
 * query joins the caller's transaction (the locked ledger change's) when there is one.
 */
@Injectable()
export class BrokerImportRepository {
  constructor(private readonly host: TransactionHost<TransactionalAdapterTypeOrm>) {}

  /** The current transaction's EntityManager, or the pool's outside one. */
  private get manager() {
    return this.host.tx;
  }

  /** Of `keys`, those already recorded for the user, with the transaction each became. */
  async recordedKeys(userId: number, keys: readonly string[]): Promise<Map<string, number>> {
    const recorded = new Map<string, number>();
    for (let start = 0; start < keys.length; start += KEYS_PER_STATEMENT) {
      const rows = (await this.manager.query(
        `SELECT import_key, transaction_id FROM portfolio_import_keys WHERE user_id = $1 AND import_key = ANY($2::varchar[])`,
        [userId, keys.slice(start, start + KEYS_PER_STATEMENT)],
      )) as { import_key: string; transaction_id: number }[];
      for (const row of rows) recorded.set(row.import_key, row.transaction_id);
    }
    return recorded;
  }

  async insertKeys(userId: number, keys: readonly { key: string; transactionId: number }[]): Promise<void> {
    for (let start = 0; start < keys.length; start += KEYS_PER_STATEMENT) {
      const chunk = keys.slice(start, start + KEYS_PER_STATEMENT);
      await this.manager.query(
        `INSERT INTO portfolio_import_keys (user_id, import_key, transaction_id)
         SELECT $1, key, id FROM unnest($2::varchar[], $3::integer[]) AS k(key, id)`,
        [userId, chunk.map((row) => row.key), chunk.map((row) => row.transactionId)],
      );
    }
  }

  /** Stores a preview and answers its token. Expired previews of the user are dropped on the way. */
  async savePreview<E, A>(
    userId: number,
    entries: E,
    answer: A,
    now: Date,
    expiresAt: Date,
  ): Promise<string> {
    await this.manager.query(
      `DELETE FROM portfolio_import_previews WHERE user_id = $1 AND expires_at <= $2`,
      [userId, now],
    );
    const [row] = (await this.manager.query(
      `INSERT INTO portfolio_import_previews (user_id, entries, answer, created_at, expires_at)
       VALUES ($1, $2::jsonb, $3::jsonb, $4, $5) RETURNING token`,
      [userId, JSON.stringify(entries), JSON.stringify(answer), now, expiresAt],
    )) as { token: string }[];
    return row.token;
  }

  /** The user's preview of that token, deleted in the same transaction (a token commits once). */
  async takePreview<E, A>(userId: number, token: string): Promise<StoredPreview<E, A> | null> {
    const [rows] = (await this.manager.query(
      `DELETE FROM portfolio_import_previews WHERE token = $1 AND user_id = $2 RETURNING entries, answer, expires_at`,
      [token, userId],
    )) as [{ entries: E; answer: A; expires_at: Date }[], number];
    const row = rows[0];
    return row ? { entries: row.entries, answer: row.answer, expiresAt: new Date(row.expires_at) } : null;
  }
}
