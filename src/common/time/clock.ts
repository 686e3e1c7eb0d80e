import { Injectable } from '@nestjs/common';

/** The source of "now", injected so tests can move time instead of waiting for it. */
export abstract class Clock {
  abstract now(): Date;
}

@Injectable()
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
