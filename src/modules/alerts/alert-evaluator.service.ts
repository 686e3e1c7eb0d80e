import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/time/clock';
import { TimeSlices } from '../../common/time/time-slices';
import { MarketService, StockQuote } from '../market';
import { NewsService } from '../news';
import { PortfolioQueries } from '../portfolio';
import { PreferencesService } from '../preferences';
import { PORTFOLIO_TARGET } from './alert-fields';
import { AlertRule } from './alert-rule';
import {
  averageSentiment,
  checkDayChange,
  checkDrawdown,
  checkNews,
  checkPrice,
  checkRiskLevel,
  checkSentimentShift,
  checkWatchlist,
  Firing,
  NewsFigures,
} from './alert-checks';
import { AlertRulesRepository, NewsLevel, PassLevels, WatchlistMove } from './alert-rules.repository';
import { lastSessionOpen } from './market-session';
import { NotificationDeliveriesRepository } from './delivery/notification-deliveries.repository';
import { NotificationSettingsService } from './delivery/notification-settings.service';
import { NotificationsRepository } from './notifications.repository';
import { largestMove, newsLevels } from './pass-levels';

/** Rules read and judged at a time. */
const PAGE_SIZE = 5_000;
/**
 * How long judging may hold the event loop before letting requests in: judging from figures
 * already read never waits on I/O. A slice rather than a count of rules, because every break lets
 * all the requests that arrived meanwhile run before the pass goes on: under load, breaking every
 * hundred rules made a pass last several times its own work.
 */
const SLICE_MS = 10;
/** News items read per symbol for the news and sentiment_shift kinds. */
const NEWS_PER_SYMBOL = 50;

/** What a pass reads once before the rules (see passFacts). */
interface PassFacts {
  quotes: Map<string, StockQuote | null>;
  watchlists: Map<number, string[]>;
  levels: PassLevels;
}

export interface EvaluationReport {
  rearmed: number;
  evaluated: number;
  fired: number;
}

/** What one pass reads once and shares among the rules that need it. */
class PassInputs {
  private readonly totals = new Map<number, ReturnType<PortfolioQueries['totals']>>();
  private readonly news = new Map<string, Promise<NewsFigures[]>>();

  constructor(
    private readonly services: {
      portfolio: PortfolioQueries;
      newsService: NewsService;
    },
  ) {}

  /** The user's portfolio totals (value, day change, positions), read once per pass. */
  portfolioTotals(userId: number) {
    let totals = this.totals.get(userId);
    if (!totals) {
      totals = this.services.portfolio.totals(userId);
      this.totals.set(userId, totals);
    }
    return totals;
  }

  newsFor(symbol: string): Promise<NewsFigures[]> {
    let items = this.news.get(symbol);
    if (!items) {
      items = this.services.newsService.forStock(symbol, NEWS_PER_SYMBOL);
      this.news.set(symbol, items);
    }
    return items;
  }
}

/**
 * One evaluation pass over every active rule: re-arms what its policy re-arms, reads the figures
 * once per symbol and user, and fires each rule whose threshold is reached. Firing is one
 * transaction (the rule moves to triggered for its arming, the notification is inserted once), so
 * passes running at the same time on two replicas, or a retried pass, write each notification once.
 */
@Injectable()
export class AlertEvaluatorService {
  private readonly logger = new Logger('AlertEvaluator');

  constructor(
    private readonly rules: AlertRulesRepository,
    private readonly notifications: NotificationsRepository,
    private readonly deliveries: NotificationDeliveriesRepository,
    private readonly deliverySettings: NotificationSettingsService,
    private readonly market: MarketService,
    private readonly portfolio: PortfolioQueries,
    private readonly newsService: NewsService,
    private readonly preferences: PreferencesService,
    private readonly clock: Clock,
  ) {}

  /** Whether a pass would read or change anything: with no rule active or to re-arm, it would not. */
  hasWork(): Promise<boolean> {
    return this.rules.anyToEvaluate();
  }

  async evaluate(): Promise<EvaluationReport> {
    if (!(await this.hasWork())) return { rearmed: 0, evaluated: 0, fired: 0 };
    const now = this.clock.now();
    const rearmed = await this.rules.rearmDue(now, lastSessionOpen(now));
    const evaluated = await this.rules.activeCount();
    await this.rules.refreshStaleStatistics(evaluated);
    const inputs = new PassInputs({ portfolio: this.portfolio, newsService: this.newsService });
    const facts = await this.passFacts(inputs);
    await this.rules.raiseSymbolPeaks(facts.levels.quotes);
    let afterId = 0;
    let fired = 0;
    for (;;) {
      const page = await this.rules.candidatesAfter(afterId, PAGE_SIZE, facts.levels);
      fired += await this.evaluatePage(page, facts, inputs, now);
      if (page.length < PAGE_SIZE) break;
      afterId = page[page.length - 1].id;
    }
    return { rearmed, evaluated, fired };
  }

  /**
   * What a pass reads once, before the rules: the quotes of every symbol a quote rule or a watched
   * watchlist names, the news of the symbols news rules watch, the watchlists, and which users with
   * portfolio rules hold a ledger; and from them the levels the candidates query compares the rules with.
   */
  private async passFacts(inputs: PassInputs): Promise<PassFacts> {
    const [targets, newsTargets, watchers, portfolioUsers] = await Promise.all([
      this.rules.activeQuoteTargets(),
      this.rules.activeNewsTargets(),
      this.rules.activeWatchlistUsers(),
      this.rules.activePortfolioUsers(),
    ]);
    const watchlists =
      watchers.length > 0 ? await this.preferences.watchlists(watchers) : new Map<number, string[]>();
    const symbols = new Set(targets);
    for (const list of watchlists.values()) for (const symbol of list) symbols.add(symbol);
    const quotes =
      symbols.size > 0 ? await this.market.getQuotes([...symbols]) : new Map<string, StockQuote | null>();
    const quoted = (symbol: string) => quotes.get(symbol) ?? [];
    const watchlistMoves: WatchlistMove[] = [];
    for (const [userId, list] of watchlists) {
      const percent = largestMove(list.flatMap(quoted));
      if (percent !== null) watchlistMoves.push({ userId, percent });
    }
    const ledgerOwners =
      portfolioUsers.length > 0 ? await this.portfolio.usersWithLedger(portfolioUsers) : [];
    return {
      quotes,
      watchlists,
      levels: {
        quotes: [...quotes.values()]
          .filter((quote): quote is StockQuote => !!quote)
          .map(({ symbol, price, changePercent }) => ({ symbol, price, changePercent })),
        news: (await Promise.all(newsTargets.map((symbol) => this.newsLevelsOf(symbol, inputs)))).flat(),
        watchlistMoves,
        ledgerOwners: [...ledgerOwners],
      },
    };
  }

  /** A symbol's news levels; none when its news cannot be read (its rules are judged next pass). */
  private async newsLevelsOf(symbol: string, inputs: PassInputs): Promise<NewsLevel[]> {
    try {
      return newsLevels(symbol, await inputs.newsFor(symbol));
    } catch (error) {
      this.logger.warn(`News on ${symbol} could not be read for the alert rules: ${String(error)}`);
      return [];
    }
  }

  private async evaluatePage(
    page: AlertRule[],
    facts: PassFacts,
    inputs: PassInputs,
    now: Date,
  ): Promise<number> {
    const peaks: { id: number; arming: number; peak: number }[] = [];
    let fired = 0;
    const slices = new TimeSlices(SLICE_MS);
    for (const rule of page) {
      if (slices.spent()) await slices.next();
      try {
        const firing = await this.judge(rule, { ...facts, inputs, peaks, now });
        if (firing && (await this.fire(rule, firing, now))) fired++;
      } catch (error) {
        this.logger.warn(`Alert rule ${rule.id} could not be evaluated: ${String(error)}`);
      }
    }
    await this.rules.raisePeaks(peaks);
    return fired;
  }

  private async judge(
    rule: AlertRule,
    context: {
      quotes: Map<string, StockQuote | null>;
      watchlists: Map<number, string[]>;
      inputs: PassInputs;
      peaks: { id: number; arming: number; peak: number }[];
      now: Date;
    },
  ): Promise<Firing | null> {
    const { quotes, inputs } = context;
    switch (rule.kind) {
      case 'price_above':
      case 'price_below': {
        const quote = quotes.get(rule.symbol!);
        return quote ? checkPrice(rule, quote) : null;
      }
      case 'day_change': {
        if (rule.symbol === PORTFOLIO_TARGET) {
          const summary = await inputs.portfolioTotals(rule.userId);
          if (summary.positionsCount === 0) return null;
          return checkDayChange(rule, {
            label: 'Your portfolio',
            changePercent: summary.dayChangePercent,
            amount: summary.dayChange,
            asOf: summary.asOf.toISOString(),
          });
        }
        const quote = quotes.get(rule.symbol!);
        return quote ? checkDayChange(rule, { label: quote.symbol, ...quote }) : null;
      }
      case 'drawdown': {
        let figures: { label: string; value: number; asOf: string };
        if (rule.symbol === PORTFOLIO_TARGET) {
          const summary = await inputs.portfolioTotals(rule.userId);
          if (summary.positionsCount === 0) return null;
          figures = { label: 'Your portfolio', value: summary.totalValue, asOf: summary.asOf.toISOString() };
        } else {
          const quote = quotes.get(rule.symbol!);
          if (!quote) return null;
          figures = { label: quote.symbol, value: quote.price, asOf: quote.asOf };
        }
        const peak = Math.max(rule.peak ?? figures.value, figures.value);
        if (peak !== rule.peak) context.peaks.push({ id: rule.id, arming: rule.arming, peak });
        return checkDrawdown(rule, { ...figures, peak });
      }
      case 'watchlist_move': {
        const listed = (context.watchlists.get(rule.userId) ?? [])
          .map((symbol) => quotes.get(symbol))
          .filter((quote): quote is StockQuote => !!quote);
        return checkWatchlist(rule, listed);
      }
      case 'news':
        return checkNews(rule, await inputs.newsFor(rule.symbol!));
      case 'sentiment_shift': {
        const average = averageSentiment(
          await inputs.newsFor(rule.symbol!),
          context.now,
          rule.thresholds.window_days!,
        );
        if (average === null) return null;
        if (rule.baseline === null) {
          await this.rules.setBaseline(rule.id, rule.arming, average);
          return null;
        }
        return checkSentimentShift(rule, average, rule.baseline);
      }
      case 'risk_level': {
        const summary = await inputs.portfolioTotals(rule.userId);
        if (summary.positionsCount === 0) return null;
        const metrics = await this.portfolio.riskMetrics(rule.userId, 252, '^GSPC');
        return checkRiskLevel(metrics.riskLevel, metrics.riskTolerance, metrics.matchesPreferences);
      }
    }
  }

  /** True when this call fired the rule; false when another pass already had. */
  private async fire(rule: AlertRule, firing: Firing, now: Date): Promise<boolean> {
    const plan = await this.deliverySettings.plan(rule.userId, now);
    return this.rules.transaction(async (manager) => {
      if (!(await this.rules.markTriggered(manager, rule.id, rule.arming, now))) return false;
      const id = await this.notifications.insertOnce(manager, {
        userId: rule.userId,
        ruleId: rule.id,
        arming: rule.arming,
        kind: rule.kind,
        title: firing.title,
        text: firing.text,
        data: firing.data,
        createdAt: now,
      });
      if (id === null) return false;
      await this.deliveries.enqueue(manager, id, rule.userId, plan.channels, plan.dueAt, plan.digest);
      return true;
    });
  }
}
