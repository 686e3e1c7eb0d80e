import { Injectable } from '@nestjs/common';
import { CountedLru } from '../../common/metrics/cache-counters';
import type { LRUCache } from 'lru-cache';
import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { Metrics } from '../../common/metrics/metrics';
import { Clock } from '../../common/time/clock';
import { normalizeSymbol } from '../market';
import { coMovementClusters, effectiveIndependentBets } from './analytics/clusters';
import { CORRELATION_WINDOW_SESSIONS } from './analytics/correlations';
import { CorrelationModel } from './correlation-model';
import { GraphMaintenance } from './graph-maintenance.service';
import { GraphRepository, HoldingEdgeRow, IndirectNewsRow, ReachedCompany } from './graph.repository';
import {
  ClusterConcentration,
  GraphHealth,
  HeldQuantity,
  IndirectNewsItem,
  PortfolioExposure,
  RelatedBy,
  RelatedCompanies,
  RelatedCompany,
} from './graph.types';

/** What "this week" means for news: the last seven days. */
const NEWS_WINDOW_MS = 7 * 86_400_000;
/** Indirect news items an exposure lists. */
const INDIRECT_NEWS_LIMIT = 10;
/** A health check that has not heard from the graph by then calls it disconnected. */
const HEALTH_TIMEOUT_MS = 1_000;

/** Answers kept: related companies per symbol and relation, exposures per user. */
const KEPT_RELATED = 2_000;
const KEPT_EXPOSURES = 1_000;
const MINUTE_MS = 60_000;

/** Weights of the two industry relations: the same sub-industry is the closer one. */
const SAME_SUB_INDUSTRY = 1;
const SAME_SECTOR = 0.5;

/**
 * The market knowledge graph's answers: companies related to a company, a portfolio's hidden
 * concentration and the news that reaches it indirectly; and its writes from other modules (the
 * ledger's holdings, the watchlist).
 */
@Injectable()
export class GraphService {
  /**
   * Answers by what they depend on: the graph's session, and for news the newest item and the
   * minute (the news window moves with the clock). A write changes the key.
   */
  private readonly relatedAnswers = new CountedLru<string, RelatedCompany[]>('graph-related', {
    max: KEPT_RELATED,
  });
  /** By user, ledger version and session: the holdings' clusters do not change with the news or the clock. */
  private readonly clusterViews = new CountedLru<string, Promise<Omit<PortfolioExposure, 'indirectNews'>>>(
    'graph-cluster-views',
    { max: KEPT_EXPOSURES },
  );
  /** By the same and the newest news item: the window's moving start is applied when read. */
  private readonly indirectNewsLists = new CountedLru<string, Promise<IndirectNewsItem[]>>(
    'graph-indirect-news',
    {
      max: KEPT_EXPOSURES,
    },
  );

  constructor(
    private readonly repository: GraphRepository,
    private readonly maintenance: GraphMaintenance,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  /** Companies related to `symbol`, strongest first. 404 `Stock X not found` for a company not in the graph. */
  async related(
    rawSymbol: string,
    by: RelatedBy,
    limit: number,
    viewerUserId: number,
  ): Promise<RelatedCompanies> {
    const symbol = normalizeSymbol(rawSymbol);
    await this.maintenance.ensureFresh();
    if (!(await this.maintenance.isCompany(symbol)))
      throw new NotFoundError(ErrorDetail.stockNotFound(symbol));
    if (by === 'news') await this.maintenance.ingestNews();
    const key = `${symbol}|${by}|${limit}|${this.dependencies(by === 'news')}`;
    let related = this.relatedAnswers.get(key);
    this.metrics.graphAnswerCache.inc({ answer: 'related', result: related ? 'hit' : 'miss' });
    if (!related) {
      related =
        by === 'industry'
          ? await this.relatedByIndustry(symbol, viewerUserId)
          : by === 'correlation'
            ? await this.relatedByCorrelation(symbol, viewerUserId)
            : await this.relatedByNews(symbol, limit);
      this.relatedAnswers.set(key, related);
    }
    return { symbol, by, related: related.slice(0, limit) };
  }

  /**
   * The user's holdings as co-movement clusters, the effective number of independent bets and the
   * news one hop from a holding. `recordHoldings` brings the user's edges to `ledgerVersion` before
   * they are read; answers kept for that version were computed from those edges, so it is not
   * called then.
   */
  exposure(
    userId: number,
    ledgerVersion: number,
    recordHoldings: () => Promise<unknown>,
  ): Promise<PortfolioExposure> {
    return this.exposureOf(userId, `${userId}|${ledgerVersion}`, async () => {
      await recordHoldings();
      return this.repository.holdings(userId);
    });
  }

  /**
   * The exposure of one of the user's accounts: its holdings (`held`, from the ledger at
   * `ledgerVersion`) weighed at the last close as the user's recorded holdings are, and answered
   * as the graph would answer for a user holding only them.
   */
  accountExposure(
    userId: number,
    accountId: number,
    ledgerVersion: number,
    held: readonly HeldQuantity[],
  ): Promise<PortfolioExposure> {
    return this.exposureOf(userId, `${userId}|account ${accountId}|${ledgerVersion}`, () =>
      this.maintenance.weighed(held),
    );
  }

  private async exposureOf(
    userId: number,
    holdingsOf: string,
    weighedHoldings: () => Promise<HoldingEdgeRow[]>,
  ): Promise<PortfolioExposure> {
    await this.maintenance.ensureFresh();
    await this.maintenance.ingestNews();
    const version = this.maintenance.version();
    const holdingsKey = `${holdingsOf}|${version?.asOf}`;
    const newsKey = `${holdingsKey}|${version?.newsThrough}`;
    const concentration = this.clusterViews.get(holdingsKey);
    const news = this.indirectNewsLists.get(newsKey);
    this.metrics.graphAnswerCache.inc({ answer: 'exposure', result: concentration && news ? 'hit' : 'miss' });
    const holdings = concentration && news ? undefined : weighedHoldings();
    const [view, items] = await Promise.all([
      concentration ?? this.kept(this.clusterViews, holdingsKey, this.clusterView(holdings!)),
      news ?? this.kept(this.indirectNewsLists, newsKey, this.indirectNews(userId, holdings!)),
    ]);
    // The window moves with the clock: an item older than 7 days leaves the list. The items are
    // newest first and the list was cut at the limit, so what remains is the list a walk now would give.
    const since = new Date(this.clock.now().getTime() - NEWS_WINDOW_MS).toISOString();
    const indirectNews = items.filter((item) => item.publishedAt >= since);
    return { ...view, indirectNews };
  }

  /**
   * The largest co-movement cluster and the effective number of bets, for the risk metrics: the
   * exposure's cluster view alone, so a risk figure neither waits for the news to be brought into
   * the graph nor walks it. `recordHoldings` brings the user's edges to `ledgerVersion` before they
   * are read; a view kept for that version was computed from those edges, so it is not called then.
   */
  async clusterConcentration(
    userId: number,
    ledgerVersion: number,
    recordHoldings: () => Promise<unknown>,
  ): Promise<ClusterConcentration> {
    return concentrationOf(
      await this.clusterViewOf(`${userId}|${ledgerVersion}`, async () => {
        await recordHoldings();
        return this.repository.holdings(userId);
      }),
    );
  }

  /** The same for one of the user's accounts, its holdings weighed as `accountExposure` does. */
  async accountClusterConcentration(
    userId: number,
    accountId: number,
    ledgerVersion: number,
    held: readonly HeldQuantity[],
  ): Promise<ClusterConcentration> {
    return concentrationOf(
      await this.clusterViewOf(`${userId}|account ${accountId}|${ledgerVersion}`, () =>
        this.maintenance.weighed(held),
      ),
    );
  }

  /**
   * What the graph's edges of the user were written from: the ledger version of the holdings and
   * the watchlist (null when never recorded).
   */
  userSources(userId: number): Promise<{ ledgerVersion: number | null; watchlist: string[] | null }> {
    return this.repository.userSources(userId);
  }

  /** Starts building (or refreshing) the graph in the background. */
  startBuilding(): void {
    this.maintenance.startRefresh();
  }

  /** Whether the graph is built: until then a ledger change need not be written to it. */
  isBuilt(): Promise<boolean> {
    return this.maintenance.isBuilt();
  }

  /** Replaces the user's HOLDS edges after a ledger change (`ledgerVersion` is the ledger's new version). */
  async recordHoldings(userId: number, held: readonly HeldQuantity[], ledgerVersion: number): Promise<void> {
    await this.maintenance.ensureFresh();
    await this.maintenance.recordHoldings(userId, held, ledgerVersion);
  }

  /** Replaces the user's WATCHES edges with the watchlist. */
  async recordWatchlist(userId: number, symbols: readonly string[]): Promise<void> {
    await this.maintenance.ensureFresh();
    await this.repository.changeUser((writer) =>
      writer.replaceWatchlist(userId, symbols.map(normalizeSymbol), this.clock.now()),
    );
  }

  /**
   * `connected` when the graph answers and its correlations are at most one session old,
   * `degraded` when older or not built yet (the check starts the work), `disconnected` when its
   * store does not answer.
   */
  async health(): Promise<GraphHealth> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), HEALTH_TIMEOUT_MS);
    });
    try {
      const state = await Promise.race([this.repository.state(), timeout]);
      if (state === 'timeout') return 'disconnected';
      const expected = this.maintenance.expectedAsOf();
      if (!state || state.correlationsAsOf < expected) this.maintenance.startRefresh();
      if (!state) return 'degraded';
      return state.correlationsAsOf >= this.maintenance.previousSession(expected) ? 'connected' : 'degraded';
    } catch {
      return 'disconnected';
    } finally {
      clearTimeout(timer);
    }
  }

  private async relatedByIndustry(symbol: string, viewerUserId: number): Promise<RelatedCompany[]> {
    const [reached, model] = await Promise.all([
      this.repository.reachedCompanies([symbol], ['IN_SUB_INDUSTRY', 'IN_SECTOR'], 2, viewerUserId),
      this.currentModel(),
    ]);
    const best = new Map<string, RelatedCompany>();
    for (const company of reached) {
      const subIndustry = company.viaKind === 'sub_industry';
      const weight = subIndustry ? SAME_SUB_INDUSTRY : SAME_SECTOR;
      if ((best.get(company.symbol)?.weight ?? 0) >= weight) continue;
      best.set(company.symbol, {
        symbol: company.symbol,
        name: company.name,
        weight,
        why: `same ${subIndustry ? 'sub-industry' : 'sector'}: ${company.viaLabel}`,
        path: [symbol, company.viaLabel ?? '', company.symbol],
      });
    }
    const closeness = (other: string) => model?.correlation(symbol, other) ?? 0;
    return [...best.values()].sort(
      (a, b) =>
        b.weight - a.weight || closeness(b.symbol) - closeness(a.symbol) || (a.symbol < b.symbol ? -1 : 1),
    );
  }

  private async relatedByCorrelation(symbol: string, viewerUserId: number): Promise<RelatedCompany[]> {
    const reached = await this.repository.reachedCompanies([symbol], ['CO_MOVES_WITH'], 1, viewerUserId);
    return reached
      .map((company: ReachedCompany) => ({
        symbol: company.symbol,
        name: company.name,
        weight: company.weight,
        why: `correlation ${company.weight.toFixed(2)} over ${CORRELATION_WINDOW_SESSIONS} sessions`,
        path: [symbol, company.symbol],
      }))
      .sort((a, b) => b.weight - a.weight || (a.symbol < b.symbol ? -1 : 1));
  }

  private async relatedByNews(symbol: string, limit: number): Promise<RelatedCompany[]> {
    const since = new Date(this.clock.now().getTime() - NEWS_WINDOW_MS);
    const rows = await this.repository.coMentioned(symbol, since, limit);
    return rows.map((row) => ({
      symbol: row.symbol,
      name: row.name,
      weight: row.items / row.total,
      why: `mentioned together in ${row.items} ${row.items === 1 ? 'item' : 'items'} this week`,
      path: [symbol, 'news', row.symbol],
    }));
  }

  /** The exposure's cluster view from the same cache, keyed alike. */
  private async clusterViewOf(
    holdingsOf: string,
    weighedHoldings: () => Promise<HoldingEdgeRow[]>,
  ): Promise<Omit<PortfolioExposure, 'indirectNews'>> {
    await this.maintenance.ensureFresh();
    const holdingsKey = `${holdingsOf}|${this.maintenance.version()?.asOf}`;
    const view = this.clusterViews.get(holdingsKey);
    this.metrics.graphAnswerCache.inc({ answer: 'clusters', result: view ? 'hit' : 'miss' });
    return view ?? this.kept(this.clusterViews, holdingsKey, this.clusterView(weighedHoldings()));
  }

  private async clusterView(
    weighedHoldings: Promise<HoldingEdgeRow[]>,
  ): Promise<Omit<PortfolioExposure, 'indirectNews'>> {
    const holdings = (await weighedHoldings).filter(({ weight }) => weight > 0);
    const model = await this.currentModel();
    if (holdings.length === 0) {
      return {
        asOf: model?.asOf ?? null,
        clusters: [],
        effectiveBets: 0,
        largestClusterWeight: 0,
        largestSingleWeight: 0,
      };
    }
    const symbols = holdings.map(({ symbol }) => symbol);
    const edges = await this.repository.coMovementAmong(symbols);
    const correlationOf = (a: string, b: string) => model?.correlation(a, b) ?? null;
    const clusters = coMovementClusters(holdings, edges, correlationOf);
    return {
      asOf: model?.asOf ?? null,
      clusters,
      effectiveBets: effectiveIndependentBets(holdings, correlationOf),
      largestClusterWeight: clusters[0].combinedWeight,
      largestSingleWeight: Math.max(...holdings.map(({ weight }) => weight)),
    };
  }

  private async indirectNews(
    userId: number,
    weighedHoldings: Promise<HoldingEdgeRow[]>,
  ): Promise<IndirectNewsItem[]> {
    const since = new Date(this.clock.now().getTime() - NEWS_WINDOW_MS);
    const held = (await weighedHoldings).map(({ symbol }) => symbol);
    const rows = await this.repository.indirectNews(userId, held, since, INDIRECT_NEWS_LIMIT);
    return rows.map(toIndirectNews);
  }

  /** Keeps a computation under its key while it runs and after; a failed one is forgotten. */
  private kept<T extends object>(
    cache: LRUCache<string, Promise<T>>,
    key: string,
    computing: Promise<T>,
  ): Promise<T> {
    cache.set(key, computing);
    computing.catch(() => cache.delete(key));
    return computing;
  }

  private async currentModel(): Promise<CorrelationModel | null> {
    const version = this.maintenance.version();
    return version ? this.maintenance.model(version.asOf) : null;
  }

  /** The graph's version, and with news the newest item and the minute (the 7-day window moves). */
  private dependencies(withNews: boolean): string {
    const version = this.maintenance.version();
    const minute = Math.floor(this.clock.now().getTime() / MINUTE_MS);
    return withNews ? `${version?.asOf}|${version?.newsThrough}|${minute}` : `${version?.asOf}`;
  }
}

function concentrationOf(view: Omit<PortfolioExposure, 'indirectNews'>): ClusterConcentration {
  const [largest] = view.clusters;
  return {
    largestClusterWeight: view.largestClusterWeight,
    largestClusterMembers: largest ? largest.members.map(({ symbol }) => symbol) : [],
    effectiveBets: view.effectiveBets,
  };
}

function toIndirectNews(row: IndirectNewsRow): IndirectNewsItem {
  const why = row.viaLabel
    ? `${row.symbol} is in the same sub-industry as ${row.holding}: ${row.viaLabel}`
    : `${row.symbol} moves with ${row.holding} (correlation ${row.correlation.toFixed(2)})`;
  return {
    title: row.title,
    url: row.url,
    publishedAt: row.publishedAt.toISOString(),
    sentiment: row.sentiment,
    sentimentScore: row.sentimentScore,
    symbol: row.symbol,
    holding: row.holding,
    why,
    path: row.viaLabel ? [row.holding, row.viaLabel, row.symbol, 'news'] : [row.holding, row.symbol, 'news'],
  };
}
