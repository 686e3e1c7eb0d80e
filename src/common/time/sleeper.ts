import { Injectable } from '@nestjs/common';

/** Waiting, injected beside the Clock so tests can advance a fake clock instead of sleeping. */
export abstract class Sleeper {
  abstract sleep(ms: number): Promise<void>;
}

@Injectable()
export class TimerSleeper extends Sleeper {
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
}
