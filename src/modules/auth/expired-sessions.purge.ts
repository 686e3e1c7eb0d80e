import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/time/clock';
import { authConfig } from '../../config/auth.config';

const PURGE_INTERVAL_MS = 60 * 60_000;

/**
 * Deletes refresh tokens past their expiry, then sessions left without any refresh token once
 * their last access token has expired too (an access token lives at most the access-token
 * lifetime after the refresh that minted it). Every instance runs it hourly; the deletes are
 * idempotent, so instances need no coordination.
 */
@Injectable()
export class ExpiredSessionsPurge implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SessionPurge');
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(authConfig.KEY) private readonly config: ConfigType<typeof authConfig>,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(
      () =>
        void this.purge().catch((error: unknown) =>
          this.logger.warn(`Purge of expired sessions failed: ${String(error)}`),
        ),
      PURGE_INTERVAL_MS,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async purge(): Promise<{ refreshTokens: number; sessions: number }> {
    const now = this.clock.now();
    const [, refreshTokens] = (await this.dataSource.query(
      `DELETE FROM refresh_tokens WHERE expires_at <= $1`,
      [now],
    )) as [unknown, number];
    const [, sessions] = (await this.dataSource.query(
      `DELETE FROM sessions s
       WHERE s.created_at <= $1
         AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.session_id = s.id)`,
      [new Date(now.getTime() - this.config.accessTokenTtlSeconds * 1000)],
    )) as [unknown, number];
    if (refreshTokens + sessions > 0) {
      this.logger.log(`Purged ${refreshTokens} expired refresh tokens and ${sessions} ended sessions`);
    }
    return { refreshTokens, sessions };
  }
}
