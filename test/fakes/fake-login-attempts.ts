import type { LoginAttempts } from '../../src/modules/auth/auth.service';
import { RateLimitedError } from '../../src/common/errors/domain-errors';

/** Counts reserved attempts that were not given back; `locked` refuses every attempt. */
export class FakeLoginAttempts implements LoginAttempts {
  failures = 0;
  locked = false;

  async reserveAttempt(): Promise<void> {
    if (this.locked) throw new RateLimitedError('locked', 60);
    this.failures += 1;
  }

  async release(): Promise<void> {
    this.failures -= 1;
  }
}
