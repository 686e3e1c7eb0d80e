import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '../../common/time/clock';
import { dateOfTradingDay, previousTradingDay, sessionAt } from './replay-calendar';
import { loadReplayDataset } from './replay-data.loader';
import { ReplayStockEntry } from './replay-data.format';
import { ReplayMarket, SessionMoves } from './replay-market';

/**
 * The offline replay: real 2013–2018 S&P 500 history played on today's calendar. Loads the
 * shipped history once, off the boot path: loading starts when the application has bootstrapped
 * and the first request that needs it awaits the same promise.
 */
@Injectable()
export class ReplayService implements OnApplicationBootstrap {
  private loading: Promise<ReplayMarket> | null = null;

  constructor(private readonly clock: Clock) {}

  onApplicationBootstrap(): void {
    // Warm up in the background; a failure surfaces to the first caller of market().
    this.market().catch(() => undefined);
  }

  market(): Promise<ReplayMarket> {
    if (!this.loading) {
      this.loading = loadReplayDataset().then((dataset) => new ReplayMarket(dataset));
      this.loading.catch(() => {
        this.loading = null;
      });
    }
    return this.loading;
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
