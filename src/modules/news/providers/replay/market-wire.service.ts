import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../../../common/time/clock';
import { newsConfig } from '../../../../config/news.config';
import {
  dateOfTradingDay,
  isTradingDate,
  previousTradingDay,
  REPLAY_EPOCH,
  ReplayService,
  tradingDayOnOrBefore,
} from '../../../replay';
import { newestFirst, sessionDateOfStoryId, WireStory, writeSessionWire } from './market-wire';
import { CountedLru } from '../../../../common/metrics/cache-counters';
import { TimeSlices } from '../../../../common/time/time-slices';

/** Sessions whose stories stay memoized; older ones are rebuilt on demand (they never change). */
const MEMOIZED_SESSIONS = 15;
/** Windows of recent sessions whose merged, ordered stories stay memoized. */
const MEMOIZED_WINDOWS = 4;
/** The wire starts with the replay calendar: no stories about sessions before its epoch. */
const FIRST_SESSION = REPLAY_EPOCH;
/** How long writing sessions' stories may hold the event loop before letting requests in. */
const WRITING_SLICE_MS = 10;

/**
 * The market wire over the replay calendar: each closed session's stories, written once from the
 * replayed moves and memoized, published at their filing time (never ahead of the clock).
 */
@Injectable()
export class MarketWire {
  private readonly sessions = new CountedLru<string, Promise<WireStory[]>>('news-wire-sessions', {
    max: MEMOIZED_SESSIONS,
  });
  /** Every story of the sessions up to a trading day, newest first, published or not yet. */
  private readonly windows = new CountedLru<number, Promise<readonly WireStory[]>>('news-wire-windows', {
    max: MEMOIZED_WINDOWS,
  });
  /** The published part of each window as last cut: it only grows when a story's filing time passes. */
  private readonly publishedParts = new WeakMap<readonly WireStory[], readonly WireStory[]>();

  constructor(
    private readonly replay: ReplayService,
    private readonly clock: Clock,
    @Inject(newsConfig.KEY) private readonly config: ConfigType<typeof newsConfig>,
  ) {}

  /**
   * The stories published by now in the `replaySessions` closed sessions up to `until` (YYYY-MM-DD,
   * default the last closed session) and not before the replay epoch, newest first.
   */
  async recentStories(until?: string): Promise<readonly WireStory[]> {
    const lastClosed = this.replay.lastClosedSession();
    const end = tradingDayOnOrBefore(until && until < lastClosed ? until : lastClosed);
    const stories = await this.window(end);
    // Newest first, so the stories published by now are a suffix: the first one not after now on.
    const now = this.clock.now().toISOString();
    let low = 0;
    let high = stories.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (stories[middle].publishedAt <= now) high = middle;
      else low = middle + 1;
    }
    const earlier = this.publishedParts.get(stories);
    if (earlier && earlier.length === stories.length - low) return earlier;
    const published = Object.freeze(stories.slice(low));
    this.publishedParts.set(stories, published);
    return published;
  }

  private window(end: number): Promise<readonly WireStory[]> {
    const memoized = this.windows.get(end);
    if (memoized) return memoized;
    const dates: string[] = [];
    for (let day = end; dates.length < this.config.replaySessions; day = previousTradingDay(day)) {
      const date = dateOfTradingDay(day);
      if (date < FIRST_SESSION) break;
      dates.push(date);
    }
    const merged = this.sessionsInTurn(dates).then((sessions) =>
      Object.freeze(sessions.flat().sort(newestFirst)),
    );
    merged.catch(() => this.windows.delete(end));
    this.windows.set(end, merged);
    return merged;
  }

  /**
   * The sessions' stories, written one session after another: writing one holds the event loop for
   * tens of ms, and a window's sessions all written at once held it for a quarter of a second.
   */
  private async sessionsInTurn(dates: readonly string[]): Promise<WireStory[][]> {
    const sessions: WireStory[][] = [];
    const slices = new TimeSlices(WRITING_SLICE_MS);
    for (const date of dates) {
      if (slices.spent()) await slices.next();
      sessions.push(await this.session(date));
    }
    return sessions;
  }

  /** One story by id, if it has been published; ids of any past session resolve. */
  async story(id: string): Promise<WireStory | null> {
    const date = sessionDateOfStoryId(id);
    if (!date || date < FIRST_SESSION || !isTradingDate(date) || date > this.replay.lastClosedSession()) {
      return null;
    }
    const story = (await this.session(date)).find((candidate) => candidate.id === id);
    return story && this.published([story]).length === 1 ? story : null;
  }

  private published(stories: WireStory[]): WireStory[] {
    const now = this.clock.now().toISOString();
    return stories.filter((story) => story.publishedAt <= now);
  }

  private session(date: string): Promise<WireStory[]> {
    const memoized = this.sessions.get(date);
    if (memoized) return memoized;
    const written = this.replay
      .sessionMoves(date)
      .then((moves) => writeSessionWire(moves, this.config.wireBaseUrl));
    written.catch(() => this.sessions.delete(date));
    this.sessions.set(date, written);
    return written;
  }
}
