import { Injectable } from '@nestjs/common';

/** Whether this instance is shutting down: readiness then answers 503 so no new traffic is routed here. */
@Injectable()
export class DrainState {
  private isDraining = false;
  private readonly onStart: (() => void)[] = [];

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
}
