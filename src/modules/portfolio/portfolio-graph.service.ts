import { Injectable, Logger } from '@nestjs/common';
import { CoalescingQueue } from '../../common/jobs/coalescing-queue';
import { CountedLru } from '../../common/metrics/cache-counters';
import { DrainState } from '../../common/lifecycle/drain-state';
import { NotFoundError } from '../../common/errors/domain-errors';
import { ErrorDetail } from '../../common/errors/error-details';
import { ClusterConcentration, GraphService, HeldQuantity, PortfolioExposure } from '../graph';
import { PreferencesService } from '../preferences';
import { entriesOfAccount } from './account-ledger';
import { LedgerReplay, replayLedger } from './analytics/ledger-replay';
import { ledgerOwner, VersionOf } from './holdings.service';
import { PortfolioAccountsRepository } from './portfolio-accounts.repository';
import type { HoldingsSnapshot } from './holdings.service';
import {
  CACHED_LEDGER_ROWS,
  LedgerVersion,
  PortfolioTransactionsRepository,
  replayOfVersion,
} from './portfolio-transactions.repository';

/**
 * Users whose holdings are written to the graph at once after their trades: a small share of the
 * pool (10 by default), since each write may wait on its user's node (locked while the graph is
 * weighed again at a close) holding a connection that requests need.
 */
const CONCURRENT_HOLDINGS_WRITES = 2;

/**
 * The user's holdings and watchlist in the market graph: the holdings written after every ledger
 * change, and both checked against their source (the ledger's version, the watchlist) before the
 * graph answers about them, so a write that failed after the ledger committed is made again then.
 */
@Injectable()
export class PortfolioGraphService {
  private readonly logger = new Logger('PortfolioGraph');
  /**
   * What one account holds, by `<user>:<account>`, current while the ledger version is the
   * entry's: the account's entries were filtered out of the whole ledger and replayed on every
   * read. Sized in the ledger rows replayed.
   */
  private readonly accountHeld = new CountedLru<string, VersionOf<readonly HeldQuantity[]>>(
    'portfolio-account-holdings',
    {
      maxSize: CACHED_LEDGER_ROWS,
      sizeCalculation: (entry) => Math.max(1, entry.rows),
    },
  );

  private readonly holdingsWrites = new CoalescingQueue<number>(CONCURRENT_HOLDINGS_WRITES, (userId) =>
    this.updateHoldings(userId),
  );

  constructor(
    private readonly ledgers: PortfolioTransactionsRepository,
    private readonly graph: GraphService,
    private readonly preferences: PreferencesService,
    private readonly drain: DrainState,
    private readonly accounts: PortfolioAccountsRepository,
  ) {}

  /**
   * Brings the user's HOLDS edges to the ledger's current version once the graph is built (before,
   * the first read writes them), in the background: a burst of trades writes them twice at most.
   * A failure is logged, not thrown.
   */
  afterLedgerChange(userId: number): Promise<void> {
    const update = this.holdingsWrites.request(userId);
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

  /**
   * Co-movement clusters, effective bets and indirect news of the user's current holdings: those
   * of one account (404 `Account not found` when it is not the user's), or of every account combined.
   */
  async exposure(userId: number, accountId?: number): Promise<PortfolioExposure> {
    if (accountId === undefined) {
      const ledger = await this.ledgers.ledger(userId);
      return this.graph.exposure(userId, ledger.version, () => this.sync(userId, replayedVersion(ledger)));
    }
    const { version, held } = await this.accountHoldings(userId, accountId);
    return this.graph.accountExposure(userId, accountId, version, held);
  }

  /**
   * The cluster view for the risk metrics of a snapshot's holdings, of its account or of every
   * account combined; null when the graph cannot answer or is not built yet. The graph is brought
   * to the snapshot's ledger, which the risk figures are of (it is not read again), when the view
   * of that ledger version is not kept already.
   */
  async clusterConcentration(
    snapshot: Pick<HoldingsSnapshot, 'userId' | 'accountId' | 'ledgerVersion' | 'ledger' | 'replay'>,
  ): Promise<ClusterConcentration | null> {
    const { userId, accountId, ledgerVersion } = snapshot;
    try {
      if (!(await this.graph.isBuilt())) {
        this.graph.startBuilding();
        return null;
      }
      if (accountId === undefined) {
        const ledger = { version: ledgerVersion, replay: () => snapshot.replay };
        return await this.graph.clusterConcentration(userId, ledgerVersion, () => this.sync(userId, ledger));
      }
      const held = this.heldInAccount(userId, accountId, ledgerVersion, () => ({
        rows: snapshot.ledger.length,
        replay: snapshot.replay,
      }));
      return await this.graph.accountClusterConcentration(userId, accountId, ledgerVersion, held);
    } catch (error) {
      this.logger.warn(`Market graph unavailable for the risk metrics: ${String(error)}`);
      return null;
    }
  }

  /** What one of the user's accounts holds, at the ledger's version; 404 when it is not the user's. */
  private async accountHoldings(
    userId: number,
    accountId: number,
  ): Promise<{ version: number; held: readonly HeldQuantity[] }> {
    const [account, { version, entries }] = await Promise.all([
      this.accounts.find(userId, accountId),
      this.ledgers.ledger(userId),
    ]);
    if (account === null) throw new NotFoundError(ErrorDetail.accountNotFound);
    return {
      version,
      held: this.heldInAccount(userId, accountId, version, () => {
        const accountEntries = entriesOfAccount(entries, accountId);
        return { rows: accountEntries.length, replay: replayLedger(accountEntries) };
      }),
    };
  }

  /**
   * What one account holds at a ledger version, from `accountReplay` (the account's replay and
   * the ledger rows it replayed) once per version.
   */
  private heldInAccount(
    userId: number,
    accountId: number,
    version: number,
    accountReplay: () => { rows: number; replay: LedgerReplay },
  ): readonly HeldQuantity[] {
    const owner = ledgerOwner(userId, accountId);
    let cached = this.accountHeld.getCurrent(owner, (entry) => entry.version === version);
    if (!cached) {
      const { rows, replay } = accountReplay();
      cached = { version, rows, value: heldQuantities(replay) };
      this.accountHeld.set(owner, cached);
    }
    return cached.value;
  }

  /**
   * Brings the graph's edges of the user to their sources (the stored ledger unless one read in
   * the same request is given); answers the ledger version they reflect.
   */
  private async sync(userId: number, ledger?: ReplayedLedger): Promise<number> {
    const [{ version, replay }, preferences, recorded] = await Promise.all([
      ledger ?? this.ledgers.ledger(userId).then(replayedVersion),
      this.preferences.findForUser(userId),
      this.graph.userSources(userId),
    ]);
    if (recorded.ledgerVersion !== version) {
      await this.graph.recordHoldings(userId, heldQuantities(replay()), version);
    }
    const watchlist = preferences?.watchlist ?? [];
    if (recorded.watchlist?.join(',') !== watchlist.join(','))
      await this.graph.recordWatchlist(userId, watchlist);
    return version;
  }
}

/** A ledger version and its replay, made only when the graph's holdings are not of that version. */
interface ReplayedLedger {
  version: number;
  replay: () => LedgerReplay;
}

function replayedVersion(stored: LedgerVersion): ReplayedLedger {
  return { version: stored.version, replay: () => replayOfVersion(stored).replay };
}

/** The quantity of each open position a replay leaves. */
function heldQuantities(replay: LedgerReplay): HeldQuantity[] {
  return [...replay.positions.values()].map(({ symbol, quantity }) => ({ symbol, quantity }));
}
