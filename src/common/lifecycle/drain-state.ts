import { Injectable } from '@nestjs/common';

/** Whether this instance is shutting down: readiness then answers 503 so no new traffic is routed here. */
@Injectable()
export class DrainState {
  private isDraining = false;
  private readonly onStart: (() => void)[] = [];
  private readonly unfinished = new Set<Promise<unknown>>();

  get draining(): boolean {
    return this.isDraining;
  }

  start(): void {
    if (this.isDraining) return;
    this.isDraining = true;
    for (const listener of this.onStart.splice(0)) listener();
  }

  /**
   * Calls `listener` when draining starts: what holds a connection open without end (an event
   * stream) ends it, so the drain does not wait for its timeout.
   */
  whenDraining(listener: () => void): void {
    if (this.isDraining) listener();
    else this.onStart.push(listener);
  }

  /**
   * Work that must end before the database closes and that requests may still start while the
   * HTTP drain runs: a job runner stopping, updates that follow writes already answered.
   */
  finishBeforeClose(work: Promise<unknown>): void {
    this.unfinished.add(work);
    void work.then(
      () => this.unfinished.delete(work),
      () => this.unfinished.delete(work),
    );
  }

  /** Resolves when every piece of work given to finishBeforeClose has ended, however it ended. */
  async allFinished(): Promise<void> {
    while (this.unfinished.size > 0) await Promise.allSettled([...this.unfinished]);
  }
}
