import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CleanupRunner, EVERY_MINUTE } from '../../common/jobs/cleanup-runner';
import { Clock } from '../../common/time/clock';
import { RateLimitedError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { authConfig } from '../../config/auth.config';
import { canonicalEmail } from '../users/users.service';

interface AttemptWindow {
  failures: number;
  window_started_at: Date;
}

/**
 * Limits failed logins per (email, client IP) in a fixed window. Each attempt first reserves a
 * slot with one atomic upsert, and a successful login gives its slot back: so parallel guesses
 * cannot slip past the limit, successes never count, and every instance shares the count. Ended
 * windows are deleted by a clean-up job.
 */
@Injectable()
export class LoginThrottleService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(authConfig.KEY) private readonly config: ConfigType<typeof authConfig>,
    private readonly cleanups: CleanupRunner,
  ) {}

  onModuleInit(): void {
    this.cleanups.register({
      name: 'login-attempts',
      cron: EVERY_MINUTE,
      run: () => this.forgetExpiredWindows(),
    });
  }

  /** Counts this attempt as a failure until `release`; 429 once the window holds too many. */
  async reserveAttempt(email: string, clientIp: string): Promise<void> {
    const now = this.clock.now();
    const windowOpenedBefore = new Date(now.getTime() - this.windowMs());
    const rows: AttemptWindow[] = await this.dataSource.query(
      `INSERT INTO login_attempts AS attempt (email, client_ip, failures, window_started_at)
       VALUES ($1, $2, 1, $3)
       ON CONFLICT (email, client_ip) DO UPDATE SET
         failures = CASE WHEN attempt.window_started_at <= $4 THEN 1 ELSE attempt.failures + 1 END,
         window_started_at = CASE WHEN attempt.window_started_at <= $4 THEN $3 ELSE attempt.window_started_at END
       RETURNING failures, window_started_at`,
      [normalise(email), clientIp.slice(0, 64), now, windowOpenedBefore],
    );
    const window = rows[0];
    if (window.failures > this.config.failedLoginLimit) {
      const retryAfterMs = new Date(window.window_started_at).getTime() + this.windowMs() - now.getTime();
      throw new RateLimitedError(
        ErrorDetail.tooManyFailedLogins,
        Math.max(1, Math.ceil(retryAfterMs / 1000)),
      );
    }
  }

  /** Gives back the slot of an attempt that succeeded. */
  async release(email: string, clientIp: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE login_attempts SET failures = failures - 1 WHERE email = $1 AND client_ip = $2 AND failures > 0`,
      [normalise(email), clientIp.slice(0, 64)],
    );
  }

  private async forgetExpiredWindows(): Promise<number> {
    const windowOpenedBefore = new Date(this.clock.now().getTime() - this.windowMs());
    const [, removed] = (await this.dataSource.query(
      `DELETE FROM login_attempts WHERE window_started_at <= $1`,
      [windowOpenedBefore],
    )) as [unknown, number];
    return removed;
  }

  private windowMs(): number {
    return this.config.failedLoginWindowSeconds * 1000;
  }
}

function normalise(email: string): string {
  return canonicalEmail(email).slice(0, 320);
}
