import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { Cache } from 'cache-manager';
import { Clock } from '../../common/clock/clock';
import { ErrorDetail } from '../../common/errors/error-details';
import { TooManyRequestsException } from '../../common/errors/too-many-requests.exception';
import { authConfig } from '../../config/auth.config';

interface FailureWindow {
  count: number;
  startedAt: number;
}

/**
 * Counts failed logins per (email, client IP) in a fixed window; at the limit further attempts are
 * refused with 429 until the window ends. Successful logins never count.
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    private readonly clock: Clock,
    @Inject(authConfig.KEY) private readonly config: ConfigType<typeof authConfig>,
  ) {}

  async assertAllowed(email: string, ip: string): Promise<void> {
    const window = await this.currentWindow(email, ip);
    if (window && window.count >= this.config.failedLoginLimit) {
      const retryAfterMs = window.startedAt + this.windowMs() - this.clock.now().getTime();
      throw new TooManyRequestsException(
        ErrorDetail.tooManyFailedLogins,
        Math.max(1, Math.ceil(retryAfterMs / 1000)),
      );
    }
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const now = this.clock.now().getTime();
    const window = (await this.currentWindow(email, ip)) ?? { count: 0, startedAt: now };
    const next = { count: window.count + 1, startedAt: window.startedAt };
    await this.cache.set(this.key(email, ip), next, Math.max(1, window.startedAt + this.windowMs() - now));
  }

  private async currentWindow(email: string, ip: string): Promise<FailureWindow | null> {
    const window = await this.cache.get<FailureWindow>(this.key(email, ip));
    if (!window || window.startedAt + this.windowMs() <= this.clock.now().getTime()) return null;
    return window;
  }

  private windowMs(): number {
    return this.config.failedLoginWindowSeconds * 1000;
  }

  private key(email: string, ip: string): string {
    return `auth:login-failures:${email.trim().toLowerCase()}:${ip}`;
  }
}
