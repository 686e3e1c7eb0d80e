import type { Clock } from '../../src/common/time/clock';
import type { Sleeper } from '../../src/common/time/sleeper';

/**
 * The one clock of the tests: still at its start (default: the real time at construction) until a
 * test sets or advances it, and a sleeper on the same timeline whose sleeps resolve only when the
 * test runs the timers.
 */
export class FakeClock implements Clock, Sleeper {
  private readonly start: number;
  private time: number;
  private timers: { at: number; resolve: () => void }[] = [];

  constructor(start: string | Date = new Date()) {
    this.start = new Date(start).getTime();
    this.time = this.start;
  }

  now(): Date {
    return new Date(this.time);
  }

  elapsedMs(): number {
    return this.time - this.start;
  }

  advance(ms: number): void {
    this.time += ms;
  }

  set(instant: string | Date): void {
    this.time = new Date(instant).getTime();
  }

  /** The UTC day `days` before now, YYYY-MM-DD. */
  daysAgo(days: number): string {
    return new Date(this.time - days * 86_400_000).toISOString().slice(0, 10);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.timers.push({ at: this.time + ms, resolve }));
  }

  /** Fires pending sleeps in time order, letting the woken code run (and sleep again) in between. */
  async runTimers(): Promise<void> {
    await flush();
    while (this.timers.length > 0) {
      this.timers.sort((a, b) => a.at - b.at);
      const timer = this.timers.shift()!;
      this.time = Math.max(this.time, timer.at);
      timer.resolve();
      await flush();
    }
  }
}

function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
