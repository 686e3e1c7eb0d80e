import { Injectable } from '@nestjs/common';
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
   * The answer stored for this request, or null when the key is new or expired; 422 when the key
   * came with another request. Read before the write starts, so that a retry is answered at once.
   */
  async storedAnswer<T>(userId: number, request: IdempotentRequest | undefined): Promise<T | null> {
    if (!request) return null;
    const row = await this.keys.find(userId, request.key, this.notBefore());
    return row ? answerOf<T>(row, request) : null;
  }

  /**
   * Inside the unit of work that is about to write (its queries join the caller's transaction):
   * claims the key (null: go ahead and write, then `keep` the answer) or returns the answer a
   * committed request stored under it (422 when that request was another). A concurrent request
   * with the same key waits here until the first ends.
   */
  async claim<T>(userId: number, request: IdempotentRequest): Promise<T | null> {
    const notBefore = this.notBefore();
    const row = { userId, key: request.key, fingerprint: request.fingerprint, createdAt: this.clock.now() };
    if (await this.keys.claim(row, notBefore)) return null;
    const stored = await this.keys.find(userId, request.key, notBefore);
    if (!stored) throw new Error(`Idempotency key of user ${userId} neither claimed nor found`);
    return answerOf<T>(stored, request);
  }

  /** Stores the answer of the claimed key in the same unit of work, and purges some expired keys. */
  async keep(userId: number, request: IdempotentRequest, answer: unknown): Promise<void> {
    await this.keys.saveResponse(userId, request.key, answer);
    await this.keys.purgeExpired(this.notBefore());
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
