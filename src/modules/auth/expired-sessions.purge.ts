import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { CleanupRunner } from '../../common/jobs/cleanup-runner';
import { Clock } from '../../common/time/clock';
import { authConfig } from '../../config/auth.config';
import { SessionsRepository } from './sessions.repository';

/**
 * Deletes refresh tokens past their expiry, then sessions left without any refresh token once
 * their last access token has expired too (an access token lives at most the access-token
 * lifetime after the refresh that minted it). A clean-up job runs it hourly, on one replica.
 */
@Injectable()
export class ExpiredSessionsPurge implements OnModuleInit {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
    @Inject(authConfig.KEY) private readonly config: ConfigType<typeof authConfig>,
    private readonly cleanups: CleanupRunner,
  ) {}

  onModuleInit(): void {
    this.cleanups.register({
      name: 'expired-sessions',
      every: 'hour',
      run: async () => {
        const { refreshTokens, sessions } = await this.purge();
        return refreshTokens + sessions;
      },
    });
  }

  async purge(): Promise<{ refreshTokens: number; sessions: number }> {
    const now = this.clock.now();
    const refreshTokens = await this.sessions.deleteExpiredRefreshTokens(now);
    const sessions = await this.sessions.deleteSessionsWithoutRefreshTokens(
      new Date(now.getTime() - this.config.accessTokenTtlSeconds * 1000),
    );
    return { refreshTokens, sessions };
  }
}
