import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { CleanupRunner } from '../../common/jobs/cleanup-runner';
import { FixedWindow } from '../../common/rate-limit/fixed-window';
import { WindowCountersRepository } from '../../common/rate-limit/window-counters.repository';
import { Clock } from '../../common/time/clock';
import { ErrorDetail } from '../../common/errors/error-details';
import { authConfig } from '../../config/auth.config';
import { canonicalEmail } from '../users';

/**
 * Limits failed logins per (email, client IP) in a fixed window. Each attempt first reserves a
 * slot with one atomic upsert, and a successful login gives its slot back: so parallel guesses
 * cannot slip past the limit, successes never count, and every instance shares the count. Ended
 * windows are deleted by a clean-up job.
 */
@Injectable()
export class LoginThrottleService implements OnModuleInit {
  private readonly window: FixedWindow;

  constructor(
    private readonly counters: WindowCountersRepository,
    private readonly clock: Clock,
    @Inject(authConfig.KEY) private readonly config: ConfigType<typeof authConfig>,
    private readonly cleanups: CleanupRunner,
  ) {
    this.window = new FixedWindow(config.failedLoginWindowSeconds);
  }

  onModuleInit(): void {
    this.cleanups.register({
      name: 'login-attempts',
      every: 'minute',
      run: () => this.counters.deleteEnded('login-attempts', this.window.at(this.clock.now())),
    });
  }

  /** Counts this attempt as a failure until `release`; 429 once the window holds too many. */
  async reserveAttempt(email: string, clientIp: string): Promise<void> {
    const now = this.clock.now();
    const counted = await this.counters.countLoginAttempt(
      normalise(email),
      clientIp.slice(0, 64),
      this.window.at(now),
    );
    this.window.enforce(counted, this.config.failedLoginLimit, ErrorDetail.tooManyFailedLogins, now);
  }

  /** Gives back the slot of an attempt that succeeded. */
  async release(email: string, clientIp: string): Promise<void> {
    await this.counters.uncountLoginAttempt(normalise(email), clientIp.slice(0, 64));
  }
}

function normalise(email: string): string {
  return canonicalEmail(email).slice(0, 320);
}
