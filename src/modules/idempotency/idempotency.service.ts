import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '../../common/time/clock';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotentRequest } from './idempotent-request';
import { keyReusedError } from './idempotency-key';

/** How long a key and its answer are kept. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Idempotency keys of writes: the first successful answer under a key is stored in the write's
 * own transaction and replayed for every retry of the same request within 24 hours.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The answer to a request sent with a key: the one stored under the key, or the one `write`
   * gives, run at most once per key. 422 when the key came with another request. A committed
   * answer is read before any transaction opens, so that a retry is answered at once.
   */
  async answer<T>(userId: number, request: IdempotentRequest, write: () => Promise<T>): Promise<T> {
    const row = await this.keys.find(userId, request.key, this.notBefore());
    const stored = row ? answerOf<T>(row, request) : null;
    if (stored !== null) return stored;
    return this.answerOnce(userId, request, write);
  }

  /**
   * One unit of work: claims the key, runs `write` (whose transactions join this one) and stores
   * its answer, so the key, the write and the answer commit together or not at all. When the key
   * is held, this is the answer a committed request stored under it; a concurrent request with
   * the same key waits on the claim until the first ends.
   */
  @Transactional()
  private async answerOnce<T>(
    userId: number,
    request: IdempotentRequest,
    write: () => Promise<T>,
  ): Promise<T> {
    const notBefore = this.notBefore();
    const row = { userId, key: request.key, fingerprint: request.fingerprint, createdAt: this.clock.now() };
    if (!(await this.keys.claim(row, notBefore))) {
      const stored = await this.keys.find(userId, request.key, notBefore);
      if (!stored) throw new Error(`Idempotency key of user ${userId} neither claimed nor found`);
      return answerOf<T>(stored, request);
    }
    const answer = await write();
    await this.keys.saveResponse(userId, request.key, answer, this.notBefore());
    return answer;
  }

  private notBefore(): Date {
    return new Date(this.clock.now().getTime() - IDEMPOTENCY_KEY_TTL_MS);
  }
}

/** The stored JSON is the body that was answered, so it has the type the route answers with. */
function answerOf<T>(row: IdempotencyKeyEntity, request: IdempotentRequest): T {
  if (row.fingerprint !== request.fingerprint) throw keyReusedError();
  return row.response as T;
}
