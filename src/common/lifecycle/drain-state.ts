import { Injectable } from '@nestjs/common';

/** Whether this instance is shutting down: readiness then answers 503 so no new traffic is routed here. */
@Injectable()
export class DrainState {
  private isDraining = false;

  get draining(): boolean {
    return this.isDraining;
  }

  start(): void {
    this.isDraining = true;
  }
}
