import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CleanupRunner, EVERY_MINUTE } from '../../common/jobs/cleanup-runner';
import { Clock } from '../../common/time/clock';
import { RateLimitedError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { assistantConfig } from '../../config/assistant.config';

const WINDOW_MS = 60_000;

/**
 * Chat turns per user in a fixed one-minute window, counted in PostgreSQL so that every instance
 * shares the count. A turn takes its slot with one atomic upsert that only succeeds below the
 * limit (or in a new window), so parallel turns cannot slip past it and a refused turn does not count.
 * Ended windows are deleted by a clean-up job.
 */
@Injectable()
export class ChatRateLimiter implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(assistantConfig.KEY) private readonly config: ConfigType<typeof assistantConfig>,
    private readonly cleanups: CleanupRunner,
  ) {}

  onModuleInit(): void {
    this.cleanups.register({
      name: 'chat-turns',
      cron: EVERY_MINUTE,
      run: () => this.forgetExpiredWindows(),
    });
  }

  /** Counts one turn for the user; 429 with Retry-After (when the window ends) once it holds the limit. */
  async take(userId: number): Promise<void> {
    const now = this.clock.now();
    const windowOpenedBefore = new Date(now.getTime() - WINDOW_MS);
    const taken: unknown[] = await this.dataSource.query(
      `INSERT INTO assistant_chat_turns AS counted (user_id, turns, window_started_at)
       VALUES ($1, 1, $2)
       ON CONFLICT (user_id) DO UPDATE SET
         turns = CASE WHEN counted.window_started_at <= $3 THEN 1 ELSE counted.turns + 1 END,
         window_started_at = CASE WHEN counted.window_started_at <= $3 THEN $2 ELSE counted.window_started_at END
       WHERE counted.window_started_at <= $3 OR counted.turns < $4
       RETURNING turns`,
      [userId, now, windowOpenedBefore, this.config.chatTurnsPerMinute],
    );
    if (taken.length > 0) return;
    const [window] = (await this.dataSource.query(
      `SELECT window_started_at FROM assistant_chat_turns WHERE user_id = $1`,
      [userId],
    )) as { window_started_at: Date }[];
    const windowEndsAt = new Date(window?.window_started_at ?? now).getTime() + WINDOW_MS;
    throw new RateLimitedError(
      ErrorDetail.tooManyChatTurns(this.config.chatTurnsPerMinute),
      Math.max(1, Math.ceil((windowEndsAt - now.getTime()) / 1000)),
    );
  }

  private async forgetExpiredWindows(): Promise<number> {
    const windowOpenedBefore = new Date(this.clock.now().getTime() - WINDOW_MS);
    const [, removed] = (await this.dataSource.query(
      `DELETE FROM assistant_chat_turns WHERE window_started_at <= $1`,
      [windowOpenedBefore],
    )) as [unknown, number];
    return removed;
  }
}
