import { RateLimitedError } from '../errors/domain-errors';

/** The instant a count is made at, and the opening time at or before which a window has ended. */
export interface WindowBounds {
  now: Date;
  endedIfOpenedBy: Date;
}

/** A stored count and the start of the window it belongs to. */
export interface WindowCount {
  count: number;
  windowStartedAt: Date;
}

/**
 * The arithmetic every fixed-window limit shares: a window lasts `seconds` from its first count,
 * a count over the limit is refused, and the refused caller is told to retry when the window ends
 * (in whole seconds, at least one).
 */
export class FixedWindow {
  private readonly lengthMs: number;

  constructor(seconds: number) {
    this.lengthMs = seconds * 1000;
  }

  at(now: Date): WindowBounds {
    return { now, endedIfOpenedBy: new Date(now.getTime() - this.lengthMs) };
  }

  /** Throws 429 with Retry-After when the window holds more than `limit`. */
  enforce(counted: WindowCount, limit: number, detail: string, now: Date): void {
    if (counted.count > limit) throw this.refusal(detail, counted.windowStartedAt, now);
  }

  refusal(detail: string, windowStartedAt: Date, now: Date): RateLimitedError {
    return new RateLimitedError(detail, this.retryAfterSeconds(windowStartedAt, now));
  }

  retryAfterSeconds(windowStartedAt: Date, now: Date): number {
    const endsInMs = windowStartedAt.getTime() + this.lengthMs - now.getTime();
    return Math.max(1, Math.ceil(endsInMs / 1000));
  }
}
