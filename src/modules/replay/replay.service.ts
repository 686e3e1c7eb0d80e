import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { warmUp } from '../../common/lifecycle/warm-ups';
import { Clock } from '../../common/time/clock';
import { dateOfTradingDay, previousTradingDay, sessionAt } from './replay-calendar';
import { loadReplayDataset } from './replay-data.loader';
import { ReplayStockEntry } from './replay-data.format';
import { ReplayMarket, SessionMoves } from './replay-market';

/**
 * The shipped history is immutable, so a process holds one copy however many applications it hosts
 * (the test suite boots dozens per worker); a failed load is retried by the next caller.
 */
let shippedMarket: Promise<ReplayMarket> | null = null;

function loadShippedMarket(): Promise<ReplayMarket> {
  if (!shippedMarket) {
    shippedMarket = loadReplayDataset().then((dataset) => new ReplayMarket(dataset));
    shippedMarket.catch(() => {
      shippedMarket = null;
    });
  }
  return shippedMarket;
}

/**
 * The offline replay: real 2013–2018 S&P 500 history played on today's calendar. Loads the
 * shipped history once per process, off the boot path: loading starts when the application has bootstrapped
 * and the first request that needs it awaits the same promise.
 */
@Injectable()
export class ReplayService implements OnApplicationBootstrap {
  constructor(private readonly clock: Clock) {}

  onApplicationBootstrap(): void {
    // Warm up in the background; a failure surfaces to the first caller of market().
    warmUp(this.market()).catch(() => undefined);
  }

  market(): Promise<ReplayMarket> {
    return loadShippedMarket();
  }

  /** The shipped universe's stocks with company names and sectors. */
  async stocks(): Promise<readonly ReplayStockEntry[]> {
    return (await this.market()).dataset.stocks;
  }

  /**
   * How the universe (505 stocks with sectors, and the 3 indices) closed on a replay trading
   * day — the last weekday on or before `date`, default the last closed session. Full-day values,
   * so pass dates up to `lastClosedSession()` to avoid telling the future.
   */
  async sessionMoves(date?: string): Promise<SessionMoves> {
    return (await this.market()).sessionMoves(date ?? this.lastClosedSession());
  }

  /** The date (YYYY-MM-DD) of the last replay session that has closed at the clock's now. */
  lastClosedSession(): string {
    const session = sessionAt(this.clock.now());
    return dateOfTradingDay(
      session.progress >= 1 ? session.tradingDay : previousTradingDay(session.tradingDay),
    );
  }
}
