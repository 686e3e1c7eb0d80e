import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Long synchronous work cut into slices of about `budgetMs`, the event loop given a turn between
 * them: the timers, connections and requests that arrived meanwhile run before the work goes on,
 * rather than all of them waiting for the whole of it.
 */
export class TimeSlices {
  private sliceStartedAt = performance.now();

  constructor(private readonly budgetMs: number) {}

  /** Whether the current slice has used its budget: the caller awaits `next()` before going on. */
  spent(): boolean {
    return performance.now() - this.sliceStartedAt >= this.budgetMs;
  }

  /** Gives the event loop a turn, then starts a new slice. */
  async next(): Promise<void> {
    await nextTurn();
    this.sliceStartedAt = performance.now();
  }
}
