import { Injectable, Logger } from '@nestjs/common';
import { DrainState } from '../../common/lifecycle/drain-state';
import { ClusterConcentration, GraphService, PortfolioExposure } from '../graph';
import { PreferencesService } from '../preferences';
import { replayLedger } from './analytics/ledger-replay';
import { PortfolioTransactionsRepository } from './portfolio-transactions.repository';

/**
 * The user's holdings and watchlist in the market graph: the holdings written after every ledger
 * change, and both checked against their source (the ledger's version, the watchlist) before the
 * graph answers about them, so a write that failed after the ledger committed is made again then.
 */
@Injectable()
export class PortfolioGraphService {
  private readonly logger = new Logger('PortfolioGraph');

  constructor(
    private readonly ledgers: PortfolioTransactionsRepository,
    private readonly graph: GraphService,
    private readonly preferences: PreferencesService,
    private readonly drain: DrainState,
  ) {}

  /**
   * Brings the user's HOLDS edges to the ledger's current version once the graph is built (before,
   * the first read writes them); a failure is logged, not thrown.
   */
  afterLedgerChange(userId: number): Promise<void> {
    const update = this.updateHoldings(userId);
    this.drain.finishBeforeClose(update);
    return update;
  }

  private async updateHoldings(userId: number): Promise<void> {
    await this.graph
      .isBuilt()
      .then((built) => (built ? this.sync(userId) : undefined))
      .then(
        () => undefined,
        (error: unknown) =>
          this.logger.warn(`Holdings of user ${userId} not written to the market graph: ${String(error)}`),
      );
  }

  /** Co-movement clusters, effective bets and indirect news of the user's current holdings. */
  async exposure(userId: number): Promise<PortfolioExposure> {
    return this.graph.exposure(userId, await this.sync(userId));
  }

  /** The cluster view for the risk metrics; null when the graph cannot answer or is not built yet. */
  async clusterConcentration(userId: number): Promise<ClusterConcentration | null> {
    try {
      if (!(await this.graph.isBuilt())) {
        this.graph.startBuilding();
        return null;
      }
      return await this.graph.clusterConcentration(userId, await this.sync(userId));
    } catch (error) {
      this.logger.warn(`Market graph unavailable for the risk metrics: ${String(error)}`);
      return null;
    }
  }

  /** Brings the graph's edges of the user to their sources; answers the ledger version they reflect. */
  private async sync(userId: number): Promise<number> {
    const [{ version, entries }, preferences, recorded] = await Promise.all([
      this.ledgers.ledger(userId),
      this.preferences.findForUser(userId),
      this.graph.userSources(userId),
    ]);
    if (recorded.ledgerVersion !== version) {
      const held = [...replayLedger(entries).positions.values()].map(({ symbol, quantity }) => ({
        symbol,
        quantity,
      }));
      await this.graph.recordHoldings(userId, held, version);
    }
    const watchlist = preferences?.watchlist ?? [];
    if (recorded.watchlist?.join(',') !== watchlist.join(','))
      await this.graph.recordWatchlist(userId, watchlist);
    return version;
  }
}
