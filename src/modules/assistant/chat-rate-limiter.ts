import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { CleanupRunner } from '../../common/jobs/cleanup-runner';
import { FixedWindow, WindowBounds } from '../../common/rate-limit/fixed-window';
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
      every: 'minute',
      run: () => this.counters.deleteEnded('chat-turns', WINDOW.at(this.clock.now())),
    });
  }

  /** Counts one turn for the user; 429 with Retry-After (when the window ends) once it holds the limit. */
  async take(userId: number): Promise<void> {
    const turn = this.turn();
    await this.settle(userId, turn, await this.counters.takeChatTurn(userId, turn.limit, turn.bounds));
  }

  /** A turn about to be counted now, by `take` or by a statement that takes it with other work. */
  turn(): ChatTurnCount {
    return { limit: this.config.chatTurnsPerMinute, bounds: WINDOW.at(this.clock.now()) };
  }

  /** 429 with Retry-After (when the window ends) unless the turn was taken. */
  async settle(userId: number, turn: ChatTurnCount, taken: boolean): Promise<void> {
    if (taken) return;
    const { now } = turn.bounds;
    const windowStartedAt = (await this.counters.chatWindowStartedAt(userId)) ?? now;
    throw WINDOW.refusal(ErrorDetail.tooManyChatTurns(turn.limit), windowStartedAt, now);
  }
}

/** The limit a chat turn is counted against and the window it is counted in. */
export interface ChatTurnCount {
  limit: number;
  bounds: WindowBounds;
}
