import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { CleanupRunner, EVERY_MINUTE } from '../../common/jobs/cleanup-runner';
import { FixedWindow } from '../../common/rate-limit/fixed-window';
import { WindowCountersRepository } from '../../common/rate-limit/window-counters.repository';
import { Clock } from '../../common/time/clock';
import { ErrorDetail } from '../../common/errors/error-details';
import { assistantConfig } from '../../config/assistant.config';

const WINDOW = new FixedWindow(60);

/**
 * Chat turns per user in a fixed one-minute window, counted in PostgreSQL so that every instance
 * shares the count. A turn takes its slot with one atomic upsert that only succeeds below the
 * limit (or in a new window), so parallel turns cannot slip past it and a refused turn does not count.
 * Ended windows are deleted by a clean-up job.
 */
@Injectable()
export class ChatRateLimiter implements OnModuleInit {
  constructor(
    private readonly counters: WindowCountersRepository,
    private readonly clock: Clock,
    @Inject(assistantConfig.KEY) private readonly config: ConfigType<typeof assistantConfig>,
    private readonly cleanups: CleanupRunner,
  ) {}

  onModuleInit(): void {
    this.cleanups.register({
      name: 'chat-turns',
      cron: EVERY_MINUTE,
      run: () => this.counters.deleteEnded('chat-turns', WINDOW.at(this.clock.now())),
    });
  }

  /** Counts one turn for the user; 429 with Retry-After (when the window ends) once it holds the limit. */
  async take(userId: number): Promise<void> {
    const now = this.clock.now();
    const limit = this.config.chatTurnsPerMinute;
    if (await this.counters.takeChatTurn(userId, limit, WINDOW.at(now))) return;
    const windowStartedAt = (await this.counters.chatWindowStartedAt(userId)) ?? now;
    throw WINDOW.refusal(ErrorDetail.tooManyChatTurns(limit), windowStartedAt, now);
  }
}
