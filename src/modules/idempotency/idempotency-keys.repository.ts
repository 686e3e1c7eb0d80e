import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { MoreThanOrEqual } from 'typeorm';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';

/** Expired rows removed by one write at most: the purge stays a small, bounded part of a write. */
const PURGE_BATCH = 100;

/** Persistence of idempotency keys; each query joins the caller's transaction when there is one. */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly host: TransactionHost<TransactionalAdapterTypeOrm>) {}

  /** The current transaction's EntityManager, or the pool's outside one. */
  private get manager() {
    return this.host.tx;
  }

  /** The user's key if it was created at `notBefore` or later. */
  find(userId: number, key: string, notBefore: Date): Promise<IdempotencyKeyEntity | null> {
    return this.manager.findOneBy(IdempotencyKeyEntity, {
      userId,
      key,
      createdAt: MoreThanOrEqual(notBefore),
    });
  }

  /**
   * Inserts the key, or takes over an expired row of it; false when a live row holds it. A row
   * inserted by a transaction still open makes this wait on the primary key until that one ends.
   */
  async claim(
    row: Pick<IdempotencyKeyEntity, 'userId' | 'key' | 'fingerprint' | 'createdAt'>,
    notBefore: Date,
  ): Promise<boolean> {
    const claimed = await this.manager.query<{ user_id: number }[]>(
      `INSERT INTO idempotency_keys (user_id, key, fingerprint, response, created_at)
       VALUES ($1, $2, $3, NULL, $4)
       ON CONFLICT (user_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, response = NULL, created_at = EXCLUDED.created_at
         WHERE idempotency_keys.created_at < $5
       RETURNING user_id`,
      [row.userId, row.key, row.fingerprint, row.createdAt, notBefore],
    );
    return claimed.length === 1;
  }

  /**
   * Stores the answer under the user's key and, in the same round trip, deletes some rows created
   * before `purgeBefore`, any user's. SKIP LOCKED: rows another write is claiming or purging are
   * left to it, so purges never wait on each other or deadlock.
   */
  async saveResponse(userId: number, key: string, response: unknown, purgeBefore: Date): Promise<void> {
    await this.manager.query(
      `WITH purged AS (
         DELETE FROM idempotency_keys WHERE ctid IN (
           SELECT ctid FROM idempotency_keys WHERE created_at < $4 LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED))
       UPDATE idempotency_keys SET response = $3::json WHERE user_id = $1 AND key = $2`,
      [userId, key, JSON.stringify(response), purgeBefore],
    );
  }
}
