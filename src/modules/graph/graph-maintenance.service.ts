import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { warmUp } from '../../common/lifecycle/warm-ups';
import { Clock } from '../../common/time/clock';
import { NewsService } from '../news';
import { previousTradingDay, ReplayService, tradingDayOnOrBefore, dateOfTradingDay } from '../replay';
import { CORRELATION_WINDOW_SESSIONS } from './analytics/correlations';
import { loadCompanyDirectory } from './company-directory';
import { CorrelationModel } from './correlation-model';
import { GraphRepository, GraphStateRow, GraphWriter, HoldingEdgeRow } from './graph.repository';
import type { HeldQuantity } from './graph.types';
import { CountedLru } from '../../common/metrics/cache-counters';

/** How often an instance looks for a new close or new news items to bring into the graph. */
const FRESHNESS_CHECK_MS = 60_000;
/** News items older than this leave the graph. */
export const NEWS_RETENTION_DAYS = 14;
const DAY_MS = 86_400_000;

const MODELS_KEPT = 3;

/**
 * The models measured in this process, by session: a session's correlations never change, and the
 * test suite boots many applications per process.
 */
const models = new CountedLru<string, CorrelationModel>('graph-correlation-models', { max: MODELS_KEPT });

/**
 * Keeps the graph built and current: the reference graph and a year of correlations at first boot
 * (in the background, once the server listens: an application that never listens, such as a test
 * served through inject, builds it when first asked), the correlations again once per session
 * after its close, news items as they are published. Each piece of work runs once at a time in
 * this process and under the graph's lock across instances.
 */
@Injectable()
export class GraphMaintenance implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('MarketGraph');
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private fresh: Promise<void> | null = null;
  private newsIngest: Promise<void> | null = null;
  private newsCheckedAt = 0;
  /** The graph's state as this instance last read or wrote it: no query while it is current. */
  private known: GraphStateRow | null = null;
  /** Whether the server listens: only then does the instance keep the graph current by itself. */
  private serving = false;

  constructor(
    private readonly repository: GraphRepository,
    private readonly replay: ReplayService,
    private readonly news: NewsService,
    private readonly clock: Clock,
    private readonly adapterHost?: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    const fastify = this.adapterHost?.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onListen', (done) => {
      this.serving = true;
      // The first news intake scores every recent story: done among the boot's warm-ups, its
      // garbage goes with theirs, rather than an idle replica growing by ≈ 15 MB a minute later.
      void warmUp(this.keepFresh().then(() => this.ingestNewsLogged()));
      done();
    });
    this.timer = setInterval(() => {
      if (!this.serving) return;
      void this.keepFresh();
      void this.ingestNewsLogged();
    }, FRESHNESS_CHECK_MS);
    this.timer.unref();
  }

  /** Whether the graph has been built (by any instance); reads the store until it has. */
  async isBuilt(): Promise<boolean> {
    if (this.known) return true;
    this.known = await this.repository.state();
    return this.known !== null;
  }

  /** Starts bringing the graph up to date without waiting for it; failures are logged. */
  startRefresh(): void {
    void this.keepFresh();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.allSettled([this.fresh, this.newsIngest]);
  }

  /** The session whose close the graph's correlations should be measured to. */
  expectedAsOf(): string {
    return this.replay.lastClosedSession();
  }

  /** The session before `date`'s. */
  previousSession(date: string): string {
    return dateOfTradingDay(previousTradingDay(tradingDayOnOrBefore(date)));
  }

  /**
   * Builds the graph if it is not, and measures the correlations again when a session has closed
   * since; resolves when the graph is current. Concurrent callers share the work.
   */
  ensureFresh(): Promise<void> {
    if (this.known && this.known.correlationsAsOf >= this.expectedAsOf()) return Promise.resolve();
    if (this.fresh) return this.fresh;
    const work = this.bringUpToDate().finally(() => {
      if (this.fresh === work) this.fresh = null;
    });
    this.fresh = work;
    return work;
  }

  /**
   * What the graph's answers depend on besides the user: the session of its correlations and the
   * newest news item in it, as this instance knows them (null before the graph is built).
   */
  version(): { asOf: string; newsThrough: string } | null {
    return this.known
      ? { asOf: this.known.correlationsAsOf, newsThrough: this.known.newsThrough?.toISOString() ?? '' }
      : null;
  }

  /** Whether the graph has a company node for `symbol` (the shipped directory, held in memory). */
  async isCompany(symbol: string): Promise<boolean> {
    return (await loadCompanyDirectory()).some((company) => company.symbol === symbol);
  }

  /** The correlations of the graph's current session, measured in process (once per session). */
  async model(asOf: string): Promise<CorrelationModel> {
    const known = models.get(asOf);
    if (known) return known;
    const model = await CorrelationModel.measure(await this.replay.market(), asOf);
    models.set(asOf, model);
    return model;
  }

  /**
   * Brings news items published since the last look into the graph (MENTIONS edges); at most once
   * a second per instance, concurrent callers sharing one pass.
   */
  ingestNews(): Promise<void> {
    if (this.newsIngest) return this.newsIngest;
    if (this.clock.now().getTime() - this.newsCheckedAt < 1_000) return Promise.resolve();
    const work = this.addNewItems().finally(() => {
      this.newsCheckedAt = this.clock.now().getTime();
      if (this.newsIngest === work) this.newsIngest = null;
    });
    this.newsIngest = work;
    return work;
  }

  /**
   * ingestNews for the timer and the boot, which no caller awaits: its failure logged, and none
   * started once the application stops (the destroy hook waits only for work already running).
   */
  private async ingestNewsLogged(): Promise<void> {
    if (this.stopped) return;
    await this.ingestNews().catch((error: unknown) =>
      this.logger.warn(`Adding news to the graph failed: ${String(error)}`),
    );
  }

  /** Writes the user's HOLDS edges: each holding weighed at the last close. */
  async recordHoldings(
    userId: number,
    held: readonly HeldQuantity[],
    ledgerVersion: number | null,
  ): Promise<void> {
    const holdings = await this.weighed(held);
    await this.repository.changeUser((writer) =>
      writer.replaceHoldings(userId, holdings, ledgerVersion, this.clock.now()),
    );
  }

  private async keepFresh(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.ensureFresh();
    } catch (error) {
      if (!this.stopped) this.logger.warn(`Bringing the market graph up to date failed: ${String(error)}`);
    }
  }

  private async bringUpToDate(): Promise<void> {
    const asOf = this.expectedAsOf();
    const state = await this.repository.state();
    this.known = state;
    if (state && state.correlationsAsOf >= asOf) return;
    const model = await this.model(asOf);
    if (this.stopped) return;
    const started = Date.now();
    this.known = await this.repository.maintain(async (current, writer) => {
      if (current && current.correlationsAsOf >= asOf) return current;
      if (!current) await writer.writeReference(await loadCompanyDirectory(), this.clock.now());
      await writer.replaceCorrelations(await model.coMovingPairs(), asOf, CORRELATION_WINDOW_SESSIONS);
      if (current) await this.reweighHoldings(writer);
      await writer.writeState({ builtAt: this.clock.now(), correlationsAsOf: asOf });
      await writer.analyze();
      this.logMaintenance(current, asOf, Date.now() - started);
      return {
        builtAt: current?.builtAt ?? this.clock.now(),
        correlationsAsOf: asOf,
        newsThrough: current?.newsThrough ?? null,
      };
    });
  }

  private logMaintenance(previous: GraphStateRow | null, asOf: string, elapsedMs: number): void {
    this.logger.log(
      previous
        ? `Correlations of the market graph measured to ${asOf} in ${elapsedMs} ms`
        : `Market graph built to ${asOf} in ${elapsedMs} ms`,
    );
  }

  private async addNewItems(): Promise<void> {
    await this.ensureFresh();
    if (this.stopped) return;
    // Nothing newer than this instance knows the graph to hold: no need to ask the store. Every
    // instance's wire publishes the same stories, so items another instance added are newer than
    // this one knows too, and bring it to read the store.
    const knownThrough = this.known?.newsThrough?.toISOString() ?? '';
    const newerThanKnown = await this.news.recentMentions(knownThrough);
    if (this.known && !newerThanKnown.some((item) => item.symbols.length > 0)) return;
    const state = await this.repository.state();
    this.known = state;
    const since = state?.newsThrough?.toISOString() ?? '';
    const mentions = since === knownThrough ? newerThanKnown : await this.news.recentMentions(since);
    const items = mentions.filter((item) => item.symbols.length > 0);
    if (items.length === 0 || this.stopped) return;
    const newest = items.reduce(
      (latest, item) => (item.publishedAt > latest ? item.publishedAt : latest),
      since,
    );
    await this.repository.changeUser(async (writer) => {
      await writer.addNews(items);
      await writer.pruneNews(new Date(this.clock.now().getTime() - NEWS_RETENTION_DAYS * DAY_MS));
      await writer.writeNewsThrough(new Date(newest));
      await writer.analyze();
    });
    if (this.known) this.known = { ...this.known, newsThrough: new Date(newest) };
  }

  /** At a new close every user's holdings are weighed again at it. */
  private async reweighHoldings(writer: GraphWriter): Promise<void> {
    const byUser = new Map<number, HeldQuantity[]>();
    for (const { userId, symbol, quantity } of await writer.allHoldings()) {
      byUser.set(userId, [...(byUser.get(userId) ?? []), { symbol, quantity }]);
    }
    for (const [userId, held] of byUser) {
      await writer.replaceHoldings(userId, await this.weighed(held), null, this.clock.now());
    }
  }

  /** Each holding with its weight in the holdings' value at the last close (what a HOLDS edge records). */
  async weighed(held: readonly HeldQuantity[]): Promise<HoldingEdgeRow[]> {
    const market = await this.replay.market();
    const day = tradingDayOnOrBefore(this.replay.lastClosedSession());
    const values = held
      .filter(({ symbol, quantity }) => quantity > 0 && market.has(symbol))
      .map(({ symbol, quantity }) => ({ symbol, quantity, value: quantity * market.closeOn(symbol, day) }));
    const total = values.reduce((sum, { value }) => sum + value, 0);
    return values.map(({ symbol, quantity, value }) => ({
      symbol,
      quantity,
      weight: total > 0 ? value / total : 0,
    }));
  }
}
