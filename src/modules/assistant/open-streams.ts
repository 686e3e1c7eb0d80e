import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { RateLimitedError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { assistantConfig } from '../../config/assistant.config';

/** When to try again after a refusal: a stream lasts seconds (at most AI_TIMEOUT_MS). */
export const STREAM_RETRY_AFTER_SECONDS = 5;

/**
 * The chat answers streaming on this instance, per user and in all: each holds a connection, a
 * turn of the engine and, with a model, a request to it, for as long as the answer takes, so a
 * few free accounts must not be able to open them without end. Counted in memory: a stream lives
 * on one instance, and a restart ends them all.
 */
@Injectable()
export class OpenStreams {
  private readonly perUser = new Map<number, number>();
  private total = 0;

  constructor(@Inject(assistantConfig.KEY) private readonly config: ConfigType<typeof assistantConfig>) {}

  /** Takes a slot for one stream of `userId`; call the returned function once when it ends. */
  open(userId: number): () => void {
    const mine = this.perUser.get(userId) ?? 0;
    if (mine >= this.config.streamsPerUser) {
      throw new RateLimitedError(
        ErrorDetail.tooManyOpenStreamsForUser(this.config.streamsPerUser),
        STREAM_RETRY_AFTER_SECONDS,
      );
    }
    if (this.total >= this.config.streamsTotal) {
      throw new RateLimitedError(ErrorDetail.tooManyOpenStreams, STREAM_RETRY_AFTER_SECONDS);
    }
    this.perUser.set(userId, mine + 1);
    this.total += 1;
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.total -= 1;
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left === 0) this.perUser.delete(userId);
      else this.perUser.set(userId, left);
    };
  }
}
